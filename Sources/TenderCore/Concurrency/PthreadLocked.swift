// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// A value behind a pthread mutex, for the adapters' shared state (the crypto
/// caches, the store's SQLite connections). Used instead of Synchronization's
/// `Mutex`: on Linux `Mutex` is built on futex system calls that ThreadSanitizer
/// does not intercept, so it reported false races inside `Mutex.withLock`
/// (issues 14 and 18.8); a pthread mutex it sees, so a real race would still be
/// reported. Thread-safe.
package final class PthreadLocked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; throws what `body` throws.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with exclusive access if no other thread holds the value
    /// now; nil, running nothing, if one does (or this thread does already).
    package func withLockIfAvailable<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
