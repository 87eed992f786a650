// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// A value behind a pthread mutex. Used instead of Synchronization's `Mutex`
/// where threads share state in this module: on Linux `Mutex` is built on
/// futex system calls that ThreadSanitizer does not intercept, so it reported
/// false races inside `Mutex.withLock` (issue 18.8); a pthread mutex it sees,
/// so a real race here would still be reported. Thread-safe.
final class PthreadLocked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
