// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// One connection of the store to its database engine: SQLite's ``Database``, or a
/// PostgreSQL connection (module TenderPostgres, tenderd's only). The store's SQL
/// is written once, with `?` placeholders, in the dialect both engines speak.
/// Not thread-safe: its owner serializes use (``SQLiteStore`` keeps each behind a mutex).
package protocol StoreDatabase: AnyObject {
    /// The statement type this connection prepares.
    associatedtype Row: StoreStatement
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }
    /// Runs SQL without arguments, ignoring rows; throws ``TenderError/store(_:)`` on failure.
    func execute(_ sql: String) throws(TenderError)
    /// A statement for `sql` (`?` placeholders) with `arguments` bound (``StoreBindable``).
    func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> Row
    /// A read of `sql` with `arguments` whose answer the transaction needs later (``AheadRead``): an engine across a
    /// network sends it now, with the transaction's next round trip; SQLite makes the statement when it is first used.
    func ahead(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> AheadRead
    /// Whether ``sendAhead()`` sends anything: an engine across a network does (the store then signs a payment's record
    /// while the server answers its transaction's reads); SQLite does not.
    var sendsAhead: Bool { get }
    /// Sends the running transaction's opening and reads made ahead now, without waiting for their answers (read at the
    /// first step of one of them): the caller's work overlaps the server's. Nothing on SQLite. Throws what the
    /// transaction's earlier round trips left to throw.
    func sendAhead() throws(TenderError)
    /// Whether ``payPrepared(_:)`` may pay (PostgreSQL, while its function exists); false on SQLite.
    var paysPrepared: Bool { get }
    /// What a write transaction's read of the signing keys ends with, to hold their rows until COMMIT: ` FOR SHARE` on
    /// PostgreSQL, where a key removed or revoked by hand (not under the person's lock) while the transaction waited for an
    /// account's row was not seen and the record it signed was kept after the removal; empty on SQLite, whose write lock
    /// excludes every other writer. Never for a read transaction (read only).
    var keysReadLock: String { get }
    /// Pays `payment`, a record signed at the expected head, in one write transaction of one round trip, committed
    /// when its checks hold (``PreparedPayment``); answers ``PreparedPaymentAnswer/unsupported`` on SQLite. Throws as a
    /// write transaction does (``TenderError/outcomeUnknown(_:)`` when the answer to its COMMIT is lost).
    func payPrepared(_ payment: PreparedPayment) throws(TenderError) -> PreparedPaymentAnswer
    /// Runs `body` in a write transaction that excludes every other writer of the same ledger (this process's
    /// and other processes'), committing durably when it returns and rolling back when it throws.
    func writeTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T
    /// As ``writeTransaction(_:)``, but the commit does not wait for the disk; the next durable commit covers it.
    func lazyWriteTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T
    /// Runs `body` in a read transaction, a consistent snapshot.
    func readTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T
    /// Inside a read transaction: a number that changes whenever another connection committed since this one's last
    /// transaction (SQLite's `PRAGMA data_version`); nil when the engine cannot tell (PostgreSQL).
    func dataVersion() throws(TenderError) -> Int64?
}

extension StoreDatabase {
    /// A statement for `sql` without arguments.
    package func statement(_ sql: String) throws(TenderError) -> Row { try statement(sql, []) }

    /// Nil: this engine cannot tell whether another connection committed.
    package func dataVersion() throws(TenderError) -> Int64? { nil }

    /// False: the reads made ahead are made when first used (SQLite's way).
    package var sendsAhead: Bool { false }

    /// Nothing: the reads made ahead are made when first used (SQLite's way).
    package func sendAhead() throws(TenderError) {}

    /// False: SQLite pays through its batch's transaction only.
    package var paysPrepared: Bool { false }

    /// Empty: SQLite's write lock excludes every other writer, keys included.
    package var keysReadLock: String { "" }

    /// Unsupported: SQLite pays through its batch's transaction only.
    package func payPrepared(_ payment: PreparedPayment) throws(TenderError) -> PreparedPaymentAnswer { .unsupported }

    /// The statement made when the read is first used: nothing is sent or stepped before (SQLite's way).
    package func ahead(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> AheadRead {
        AheadRead { () throws(TenderError) -> any StoreStatement in try self.statement(sql, arguments) }
    }
}
