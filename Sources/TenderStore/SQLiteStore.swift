// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The embedded default store: one SQLite file, `tender.sqlite3` in the home
/// directory, holding the directory, the signed ledger, the payments and the
/// public signing keys. Implements the ``Directory`` and ``PaymentLedger`` ports.
///
/// Thread-safe: a reading connection and a writing connection, each behind
/// a mutex (reads use the writing one while it is free); concurrent
/// submissions share transactions (group commit).
/// Several processes may open the same home; writes take SQLite's write lock
/// up front and wait for it up to ``Database/busyTimeoutMilliseconds``.
public final class SQLiteStore: Directory, PaymentLedger {
    /// The store's file name inside the home.
    public static let fileName = "tender.sqlite3"

    let reader: PthreadLocked<Database>
    let writer: PthreadLocked<Database>
    let keys: any KeyStore
    let crypto: any LedgerCrypto
    /// Where record, key, audit and throttle times come from.
    let clock: any TenderClock
    let submissions = GroupCommitQueue<PaymentSubmission, Result<SubmissionOutcome, TenderError>>()
    /// Signatures of payments this store committed and acknowledged, by
    /// sequence, until a write transaction stores them (``write(lazy:_:)``).
    let computedSignatures = PthreadLocked<[Int64: String]>([:])
    /// Audit entries that let a payment go ahead, until a write transaction stores them (``audit(user:event:intent:detail:)``).
    let pendingAudit = PthreadLocked<[AuditRow]>([])
    /// Repeated denials counted instead of written (``AuditCoalescer``).
    let deniedRuns = AuditCoalescer()

    /// Whether the store was opened read-only (writes then fail with ``TenderError/store(_:)``).
    public let isReadOnly: Bool

    /// Opens the store in `home`. Call ``prepareHome(_:access:)`` first (it
    /// checks ownership and modes and, for `.readWrite`, creates the home and
    /// the store). Records are signed with keys from `keys`; hashes and
    /// verification use `crypto`. Refuses (``TenderError/home(_:)``) a store
    /// whose ledger is empty while HOME/keys holds a key it never recorded (a
    /// store replaced by a fresh one) unless `access` asks for a new ledger;
    /// throws ``TenderError/store(_:)`` when SQLite fails. Times are read from `clock`.
    public init(
        home: String, keys: any KeyStore, crypto: any LedgerCrypto, access: StoreAccess = .readWrite(newLedger: false),
        clock: any TenderClock = SystemClock()
    ) throws(TenderError) {
        self.clock = clock
        let path = home + "/" + SQLiteStore.fileName
        isReadOnly = access == .readOnly
        if isReadOnly {
            // A read-only WAL connection would create -wal and -shm (and cannot create them on read-only media):
            // a store with no -wal (checkpointed, no writer open) is read as immutable and nothing is created.
            // With a -wal present (a writer is open) it reads through the WAL, which then exists already.
            var info = stat()
            let immutable = lstat(path + "-wal", &info) != 0
            let reading = try Database(path: path, readOnly: true, immutable: immutable)
            try Schema.knownVersion(reading)
            writer = PthreadLocked(reading)
            reader = PthreadLocked(try Database(path: path, readOnly: true, immutable: immutable))
        } else {
            let writing = try Database(path: path)
            try Schema.migrate(writing)
            writer = PthreadLocked(writing)
            reader = PthreadLocked(try Database(path: path))
        }
        self.keys = keys
        self.crypto = crypto
        if access != .readWrite(newLedger: true) { try checkContinuity(home: home) }
        if !isReadOnly, try hasUnsignedRecords() { try write { (db) throws(TenderError) in _ = try signUnsignedRecords(db, noting: true) } }
    }

    deinit {
        // Signatures computed since the last write transaction; had this failed, the next open would sign them again.
        // Repeated denials still being counted are written as their summary rows.
        let counted = deniedRuns.close(now: clock.monotonicMilliseconds(), all: true)
        if !counted.isEmpty { pendingAudit.withLock { $0 += counted } }
        if !isReadOnly, !computedSignatures.withLock({ $0.isEmpty }) || !pendingAudit.withLock({ $0.isEmpty }) { try? write { _ in } }
    }

    /// Checks `home` as the store needs it (owner, modes, continuity) and, for
    /// `.readWrite`, creates the home (0700), the store (0600) and its marker;
    /// creates nothing when it refuses (``TenderError/home(_:)``).
    public static func prepareHome(_ home: String, access: StoreAccess = .readWrite(newLedger: false)) throws(TenderError) {
        try HomeDirectory.prepare(home, access: access)
    }

    /// An empty ledger while HOME/keys holds a key the store never recorded: the store was replaced.
    private func checkContinuity(home: String) throws(TenderError) {
        let files = HomeDirectory.keyIDs(home: home)
        guard !files.isEmpty else { return }
        let (entries, known) = try read(scan: true) { (db) throws(TenderError) -> (Int64, [String]) in
            let count = try db.statement("SELECT count(*) FROM ledger")
            _ = try count.step()
            let entries = count.int64(0)
            _ = try count.step()
            return (entries, try db.statement("SELECT kid FROM signing_keys").rows { $0.text(0) ?? "" })
        }
        guard entries == 0 else { return }
        let unknown = files.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw .home(
                "the ledger in \(home)/\(SQLiteStore.fileName) is empty, but keys/ holds \(unknown.count) key(s) it never recorded "
                    + "(\(unknown[0]).pem): the store was replaced; restore it, or start a new ledger explicitly with `tender init --force`")
        }
    }

    /// Runs `body` in a read transaction: a short one on the writing
    /// connection when no thread is writing, else on the reading one. After a
    /// commit the reading connection must read again, from the log, every
    /// page it had cached (the writer changed the file); the writer's cache
    /// holds them already. A `scan` (a whole table: listings, verify) always
    /// reads on the reading connection, so it never holds up a payment.
    func read<T: Sendable>(scan: Bool = false, _ body: (Database) throws(TenderError) -> T) throws(TenderError) -> T {
        let transaction = { (db: inout Database) throws(TenderError) -> T in
            try db.readTransaction { () throws(TenderError) -> T in try body(db) }
        }
        if !scan, let result = try writer.withLockIfAvailable(transaction) { return result }
        return try reader.withLock(transaction)
    }

    /// Runs `body` in a write transaction, which first stores the signatures
    /// computed and the audit entries kept since the last one. `lazy`: the
    /// commit does not wait for the disk (``Database/lazyWriteTransaction(_:)``);
    /// the next durable commit flushes it.
    func write<T: Sendable>(lazy: Bool = false, _ body: (Database) throws(TenderError) -> T) throws(TenderError) -> T {
        try writer.withLock { (db: inout Database) throws(TenderError) -> T in
            var stored: [Int64] = []
            var audited = 0
            let work = { () throws(TenderError) -> T in
                stored = try self.storeComputedSignatures(db)
                audited = try self.storePendingAudit(db)
                return try body(db)
            }
            let result = lazy ? try db.lazyWriteTransaction(work) : try db.writeTransaction(work)
            if !stored.isEmpty { computedSignatures.withLock { for sequence in stored { $0[sequence] = nil } } }
            if audited > 0 { pendingAudit.withLock { $0.removeFirst(audited) } }
            return result
        }
    }
}
