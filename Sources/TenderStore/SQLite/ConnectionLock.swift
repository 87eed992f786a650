// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// One SQLite connection behind a pthread mutex: each connection is used by one
/// thread at a time. A pthread mutex rather than Synchronization's `Mutex`, whose
/// futex calls ThreadSanitizer does not see: under `make test-tsan` it reported
/// every two reads on one connection from two threads as a race (issue 14; the
/// same as TenderCrypto's PthreadLocked, issue 18.8). Thread-safe.
final class ConnectionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var database: Database

    init(_ database: Database) {
        self.database = database
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the connection, alone.
    func withLock<T>(_ body: (inout Database) throws(TenderError) -> T) throws(TenderError) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&database)
    }
}
