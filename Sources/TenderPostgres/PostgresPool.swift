// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The connections one tenderd keeps to its database, shared by every person it serves: a transaction
/// borrows one and gives it back at its end, so the number of connections is bounded by the pool, not by
/// the people served (PostgreSQL's `max_connections`, 100 by default, is shared by every daemon).
/// Connections are opened on first need, up to ``size``. Thread-safe.
public final class PostgresPool: @unchecked Sendable {
    /// Connections one daemon opens at most (transactions beyond wait for one).
    public static let defaultSize = 16
    /// How long a transaction waits for a free connection before answering `storeBusy`.
    static let waitSeconds = 10

    /// Where the connections go.
    public let location: PostgresLocation
    /// The most connections opened at once.
    public let size: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let freed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var idle: [PostgresConnection] = []
    private var opened = 0
    private var waited = 0
    private var openingFunction = false
    private var paymentFunction = false

    /// Whether the schema's migration found or made the function that pays a signed record in one call
    /// (``PostgresSchema/payment``) on this pool's database; until then, and once it is found missing, payments go
    /// through their batch's transaction only.
    var paysWithFunction: Bool { locked { paymentFunction } }

    /// Notes whether the payment function exists (``PostgresSchema/migrate(_:)`` made or found it; a call found it missing).
    func notePaymentFunction(_ exists: Bool) { locked { paymentFunction = exists } }

    /// Whether the schema's migration found or made the function tenderd's transactions open with (``PostgresSchema/opening``)
    /// on this pool's database; until then they open with statements of their own.
    var opensWithFunction: Bool { locked { openingFunction } }

    /// Notes that the opening function is gone (a transaction found it missing): transactions open without it again.
    func forgetOpeningFunction() { locked { openingFunction = false } }

    /// Notes that the opening function exists (``PostgresSchema/migrate(_:)`` made or found it, committed).
    func noteOpeningFunction() { locked { openingFunction = true } }

    /// `body` with the pool's mutex held.
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Round trips to the server whose answers the pool's connections waited for, since the pool was made: each a
    /// pipeline of statements sent together (a transaction's opening with its first read, the writes queued with the
    /// next read or COMMIT), or a statement sent alone. For the bench's figures and the round-trip tests.
    public var roundTrips: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return waited
    }

    /// A pool of at most `size` connections to `location`; none is opened yet.
    public init(location: PostgresLocation, size: Int = PostgresPool.defaultSize) {
        self.location = location
        self.size = max(1, size)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(freed, nil)
    }

    deinit {
        idle.removeAll()
        pthread_cond_destroy(freed)
        pthread_mutex_destroy(mutex)
        freed.deallocate()
        mutex.deallocate()
    }

    /// A connection for one transaction: an idle one, a new one while fewer than ``size`` are open, else the
    /// first given back within ``waitSeconds`` (then ``TenderError/storeBusy(_:)``). Throws what connecting throws.
    func borrow() throws(TenderError) -> PostgresConnection {
        pthread_mutex_lock(mutex)
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Self.waitSeconds
        while idle.isEmpty && opened >= size {
            if pthread_cond_timedwait(freed, mutex, &deadline) == ETIMEDOUT, idle.isEmpty, opened >= size {
                pthread_mutex_unlock(mutex)
                throw .storeBusy("PostgreSQL: all \(size) of tenderd's connections are busy; try again")
            }
        }
        if let connection = idle.popLast() {
            pthread_mutex_unlock(mutex)
            return connection
        }
        opened += 1
        pthread_mutex_unlock(mutex)
        do throws(TenderError) { return try PostgresConnection(location: location) } catch {
            pthread_mutex_lock(mutex)
            opened -= 1
            pthread_cond_signal(freed)
            pthread_mutex_unlock(mutex)
            throw error
        }
    }

    /// Gives `connection` back after its transaction ended (committed or rolled back).
    func giveBack(_ connection: PostgresConnection) {
        pthread_mutex_lock(mutex)
        waited += connection.takeRoundTrips()
        idle.append(connection)
        pthread_cond_signal(freed)
        pthread_mutex_unlock(mutex)
    }
}
