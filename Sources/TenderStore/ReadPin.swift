// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// A read transaction one thread holds open on a store's writing connection while it runs one
/// session call (``SQLiteStore/readingTogether(_:)``): the store's reads on that thread use it
/// instead of a transaction each. Found through a thread-specific value, so it is only ever seen
/// by the thread that holds the connection's lock.
final class ReadPin {
    /// The store whose connection is held.
    let store: ObjectIdentifier
    /// The writing connection, inside `BEGIN DEFERRED`.
    let db: any StoreDatabase

    init(store: ObjectIdentifier, db: any StoreDatabase) {
        self.store = store
        self.db = db
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's pin on `store`, if it holds one.
    static func current(for store: ObjectIdentifier) -> ReadPin? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let pin = Unmanaged<ReadPin>.fromOpaque(raw).takeUnretainedValue()
        return pin.store == store ? pin : nil
    }

    /// Runs `body` with `pin` as the calling thread's pin, then puts back the one it had (nil or another store's).
    static func holding<T>(_ pin: ReadPin, _ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(pin).toOpaque())
        defer {
            pthread_setspecific(key, previous)
            withExtendedLifetime(pin) {}
        }
        return try body()
    }
}
