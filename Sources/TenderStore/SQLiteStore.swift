// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization
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

    /// The reading connection; for a SQLite store opened for writing, nil until the first read that needs it
    /// (a scan, or a read while another thread writes), then opened by ``openReader``.
    let reader: PthreadLocked<(any StoreDatabase)?>
    /// Opens the reading connection when ``reader`` is still nil (see ``LazyReader``).
    let openReader: LazyReader?
    /// The writing connection's checkpoints, run by the process's workers (``StoreCheckpoints``); nil but for a SQLite
    /// store opened for writing. Closed by deinit, before the connections.
    let checkpoints: StoreCheckpoints?
    /// Write transactions this store ran (committed, failed or rolled back), for ``stateMark()``.
    let writeGeneration = Atomic<Int64>(0)
    let writer: PthreadLocked<any StoreDatabase>
    let keys: any KeyStore
    let crypto: any LedgerCrypto
    /// Where record, key, audit and throttle times come from.
    let clock: any TenderClock
    let submissions = GroupCommitQueue<QueuedSubmission, Result<SubmissionOutcome, TenderError>>()
    /// Where this store's next payment record is expected to go (the head its last batch left, and the key that
    /// signed there), so a submitter can sign it before the write lock (``PreparedRecord``); nil when unknown.
    let expectedHead = PthreadLocked<ExpectedHead?>(nil)
    /// The key ``activeSigner(_:ahead:)`` last chose and the public key the store records for it (which the key store checked):
    /// kept with ``expectedHead`` after a batch, so a record signed ahead can name it to ``StoreDatabase/payPrepared(_:)``.
    let chosenSigner = PthreadLocked<(kid: String, publicKey: [UInt8])?>(nil)
    /// Submissions left that do not prepare their record, after one prepared did not fit (``preparePauseSubmissions``).
    let preparePause = PthreadLocked(0)
    /// Signatures of payments this store committed and acknowledged, by
    /// sequence, until a write transaction stores them (``write(lazy:_:)``).
    let computedSignatures = PthreadLocked<[Int64: String]>([:])
    /// Audit entries that let a payment go ahead, until a write transaction stores them (``audit(user:event:intent:detail:)``).
    let pendingAudit = PthreadLocked<[AuditRow]>([])
    /// Repeated denials counted instead of written (``AuditCoalescer``).
    let deniedRuns = AuditCoalescer()

    /// The PAM stack of an engine in testing mode on this store (``noteTestingMode(service:configDirectory:)``),
    /// and whether this store wrote its ``TestingModeMark`` yet.
    let testingMode = PthreadLocked<(service: String, configDirectory: String?, marked: Bool)?>(nil)
    /// Where a checkpoint is kept after each commit that grows the ledger (``keepCheckpoint(at:home:)``), and the
    /// ledger length it last held.
    let checkpointFile = PthreadLocked<KeptCheckpoint?>(nil)

    /// The home directory holding the store and `keys/`.
    let home: String
    /// Keys created by the write transaction running now, whose files are renamed to their
    /// recorded name once it commits (``HomeDirectory/promoteKeys(home:recorded:)``).
    let createdKeys = PthreadLocked<[String]>([])

    /// Where the store is, for messages: `HOME/tender.sqlite3`, or what the engine's connections say.
    let storeName: String
    /// Whether a batch's signatures are stored as soon as they are computed (a lazy write right after the batch), not by
    /// the next write: set on a shared store (tenderd on PostgreSQL), where another machine, holding a key of its own,
    /// cannot sign a record again to complete it (``SQLiteStore/storeSignaturesAtOnce()``).
    let signaturesAtOnce = PthreadLocked(false)

    /// Whether the store was opened read-only (writes then fail with ``TenderError/store(_:)``).
    public let isReadOnly: Bool
    /// Whether a quiet submitter's record is signed while its batch's first round trip travels (the writing connection
    /// sends its reads ahead, ``StoreDatabase/sendsAhead``: PostgreSQL), not before the write lock (SQLite).
    let preparesInFlight: Bool

    /// Opens the store in `home`. Call ``prepareHome(_:access:)`` first (it
    /// checks ownership and modes and, for `.readWrite`, creates the home and
    /// the store). Records are signed with keys from `keys`; hashes and
    /// verification use `crypto`. Refuses (``TenderError/home(_:)``) a store
    /// while HOME/keys holds a key it never recorded (a store replaced by a
    /// fresh one, or by one signed by another key) unless `access` asks for a new
    /// ledger, which then retires those key files when the store records no key yet;
    /// throws ``TenderError/store(_:)`` when SQLite fails. Times are read from `clock`.
    public convenience init(
        home: String, keys: any KeyStore, crypto: any LedgerCrypto, access: StoreAccess = .readWrite(newLedger: false),
        clock: any TenderClock = SystemClock()
    ) throws(TenderError) {
        let path = home + "/" + SQLiteStore.fileName
        let writer: any StoreDatabase
        let reader: any StoreDatabase
        if access == .readOnly {
            // A read-only open changes nothing in the home, not even SQLite's -shm index (which a plain
            // read-only WAL connection rewrites). A store with no -wal, or an empty one (checkpointed: a home at rest
            // keeps its emptied -wal and -shm), is read as immutable, needing no file lock (an archive on a file
            // system without them); with frames in its -wal and its -shm it reads through the WAL with the -shm
            // opened read-only, so committed frames a writer has not checkpointed are still seen.
            var wal = stat()
            var shm = stat()
            let hasWAL = lstat(path + "-wal", &wal) == 0
            let hasSHM = lstat(path + "-shm", &shm) == 0
            if hasWAL, !hasSHM, wal.st_size > 0 {
                throw .store(
                    "the store's -wal holds changes but its -shm is missing, which a read-only open would have to create: "
                        + "open the home for writing once (any tender command that writes), then verify again")
            }
            let immutable = !(hasWAL && hasSHM) || wal.st_size == 0
            let reading = try Database(path: path, readOnly: true, immutable: immutable, readOnlyShm: !immutable)
            try Schema.knownVersion(reading)
            writer = reading
            reader = try Database(path: path, readOnly: true, immutable: immutable, readOnlyShm: !immutable)
        } else {
            let writing = try Database(path: path)
            try Schema.migrate(writing)
            writer = writing
            // The reading connection is opened at the first read that needs one (most engines of a host serving many
            // people never do): it is checked then to be the store file the writer opened (LazyReader).
            let lazy = try LazyReader(path: path)
            // Checkpoints run off the committers' path (``StoreCheckpoints``), on a connection of their own.
            let checkpoints = StoreCheckpoints(opener: lazy)
            writing.checkpointAfterCommits(checkpoints)
            try self.init(
                home: home, writer: writer, reader: nil, lazy: lazy, checkpoints: checkpoints, keys: keys, crypto: crypto, access: access,
                clock: clock)
            return
        }
        try self.init(home: home, writer: writer, reader: reader, keys: keys, crypto: crypto, access: access, clock: clock)
    }

    /// Opens the store on two connections already open and migrated (`writer` also reads while no thread writes;
    /// `reader` serves the scans), of SQLite or of another engine (tenderd's PostgreSQL store, module TenderPostgres).
    /// Key files stay in `home`/keys; continuity is checked as for SQLite, unless `continuity` is false (a store
    /// being filled from another: tenderd's migration, which records the home's keys). `storeName` names the store in
    /// messages (default `home`/tender.sqlite3). Throws what the first reads throw.
    package convenience init(
        home: String, writer: any StoreDatabase, reader: any StoreDatabase, keys: any KeyStore, crypto: any LedgerCrypto, access: StoreAccess,
        clock: any TenderClock, continuity: Bool = true, storeName: String? = nil
    ) throws(TenderError) {
        try self.init(
            home: home, writer: writer, reader: reader, lazy: nil, keys: keys, crypto: crypto, access: access, clock: clock, continuity: continuity,
            storeName: storeName)
    }

    /// The store on `writer` and `reader`, or, with `reader` nil, a reading connection `lazy` opens when first needed;
    /// `checkpoints`: the writing connection's checkpoints, taken off its committers' path (SQLite).
    private init(
        home: String, writer: any StoreDatabase, reader: (any StoreDatabase)?, lazy: LazyReader?, checkpoints: StoreCheckpoints? = nil,
        keys: any KeyStore, crypto: any LedgerCrypto, access: StoreAccess, clock: any TenderClock, continuity: Bool = true,
        storeName: String? = nil
    ) throws(TenderError) {
        self.checkpoints = checkpoints
        self.clock = clock
        self.home = home
        self.storeName = storeName ?? home + "/" + SQLiteStore.fileName
        isReadOnly = access == .readOnly
        preparesInFlight = writer.sendsAhead
        self.writer = PthreadLocked(writer)
        self.reader = PthreadLocked(reader)
        openReader = lazy
        self.keys = keys
        self.crypto = crypto
        // The key files are listed before the store is read: a key file gets its own name only after its key's record
        // committed (``write(lazy:_:)``), so every file listed here is recorded in what the read below sees. Listed
        // after it, a key another process recorded and named in between would look unrecorded: a sound home refused
        // as replaced, or (a new ledger) that key retired while the store records it.
        let keyFiles = access == .readWrite(newLedger: true) || continuity ? HomeDirectory.keyIDs(home: home) : []
        // What the open needs from the store, in one read transaction: the keys recorded, the head, any row left unsigned.
        let opening = try read { (db) throws(TenderError) in
            let keys = try db.statement(Self.signingKeysSQL).rows { (kid: $0.text(0) ?? "", state: $0.int64(1), publicKey: $0.blob(2)) }
            // (A read-only open may read a store older than the seal column: it signs nothing anyway.)
            var hasUnsigned = false
            if !isReadOnly {
                let unsigned = try db.statement("SELECT 1 FROM ledger WHERE seal IS NOT NULL LIMIT 1")
                hasUnsigned = try unsigned.step()
                if hasUnsigned { _ = try unsigned.step() }
            }
            return (keys: keys, head: try Self.head(db), hasUnsigned: hasUnsigned)
        }
        let recorded = opening.keys.map(\.kid)
        // A key file written just before a crash kept its unrecorded name; one whose key was recorded gets its own.
        if !isReadOnly { HomeDirectory.promoteKeys(home: home, recorded: recorded) }
        if access == .readWrite(newLedger: true) {
            try retireEarlierKeys(home: home, files: keyFiles, recorded: recorded)
        } else if continuity {
            try checkContinuity(files: keyFiles, recorded: recorded, entries: opening.head.sequence)
        }
        if !isReadOnly, opening.hasUnsigned { try write { (db) throws(TenderError) in _ = try signUnsignedRecords(db, noting: true) } }
        if !isReadOnly, !opening.hasUnsigned {
            // The first payment can be signed ahead at the head read now (``PreparedRecord``).
            let enrolled = opening.keys.filter { $0.state == KeyState.enrolled }
            if !enrolled.isEmpty {
                let head = ExpectedHead(
                    sequence: opening.head.sequence, hash: opening.head.hash, keyIDs: enrolled.map(\.kid),
                    publicKeys: Dictionary(enrolled.map { ($0.kid, $0.publicKey) }, uniquingKeysWith: { first, _ in first }))
                expectedHead.withLock { $0 = head }
            }
        }
    }

    deinit {
        // Signatures computed since the last write transaction; had this failed, the next open would sign them again.
        // Repeated denials still being counted are written as their summary rows.
        let counted = deniedRuns.close(now: clock.monotonicMilliseconds(), all: true)
        if !counted.isEmpty { pendingAudit.withLock { $0 += counted } }
        // Signatures alone are stored without waiting for the disk (the connection's closing checkpoint flushes
        // them; were they lost, their rows are durable and sealed, and the next open signs them again): closing an
        // engine costs no flush of its own. Audit entries are stored durably.
        let auditing = !pendingAudit.withLock({ $0.isEmpty })
        if !isReadOnly, !computedSignatures.withLock({ $0.isEmpty }) || auditing { try? write(lazy: !auditing) { _ in } }
        // No worker checkpoints this store any more, nor holds its connection; the store's own close checkpoints as before.
        checkpoints?.close()
    }

    /// Checks `home` as the store needs it (owner, modes, continuity) and, for
    /// `.readWrite`, creates the home (0700), the store (0600) and its marker;
    /// creates nothing when it refuses (``TenderError/home(_:)``).
    public static func prepareHome(_ home: String, access: StoreAccess = .readWrite(newLedger: false)) throws(TenderError) {
        try HomeDirectory.prepare(home, access: access)
    }

    /// Checks and creates `home` (0700) as ``prepareHome(_:access:)`` does for writing, for a store kept
    /// elsewhere (tenderd's PostgreSQL store): the home holds the signing keys only, no store file.
    package static func prepareKeyHome(_ home: String) throws(TenderError) {
        try HomeDirectory.prepare(home, access: .readWrite(newLedger: false), storeFile: false)
    }

    /// HOME/keys holds a key the store never recorded: the store was replaced (by an empty one, or by a
    /// whole store signed by another key), whatever its ledger holds. Checked on every open, read-only too.
    /// `files`: the key ids HOME/keys held before the store was read; `recorded`: the key ids the store records;
    /// `entries`: its ledger's length.
    private func checkContinuity(files: [String], recorded: [String], entries: Int64) throws(TenderError) {
        guard !files.isEmpty else { return }
        let unknown = files.filter { !recorded.contains($0) }
        guard unknown.isEmpty else {
            let what = entries == 0 ? "is empty" : "holds \(entries) record(s)"
            throw .home(
                "the ledger in \(storeName) \(what), but keys/ holds \(unknown.count) key(s) it never recorded "
                    + "(\(unknown[0]).pem): the store was replaced; restore it, or start a new ledger explicitly with `tender init --force`")
        }
    }

    /// A new ledger asked for (`tender init --force`, `"newLedger": true`) in a store that records no key yet:
    /// the key files of the ledger it replaces are renamed `KID.pem.retired`, so every later open's
    /// continuity check (``checkContinuity(files:recorded:entries:)``) holds for the new one.
    /// `files`: the key ids HOME/keys held before the store was read (`recorded`).
    private func retireEarlierKeys(home: String, files: [String], recorded: [String]) throws(TenderError) {
        guard !files.isEmpty, recorded.isEmpty else { return }
        try HomeDirectory.retireKeys(home: home, ids: files)
    }

    /// Runs `body` in a read transaction: a short one on the writing
    /// connection when no thread is writing, else on the reading one. After a
    /// commit the reading connection must read again, from the log, every
    /// page it had cached (the writer changed the file); the writer's cache
    /// holds them already. A `scan` (a whole table: listings, verify) always
    /// reads on the reading connection, so it never holds up a payment.
    /// Inside ``readingTogether(_:)`` on this thread, `body` runs in its read transaction.
    package func read<T: Sendable>(scan: Bool = false, _ body: (any StoreDatabase) throws(TenderError) -> T) throws(TenderError) -> T {
        if let pin = ReadPin.current(for: ObjectIdentifier(self)) { return try body(pin.db) }
        let transaction = { (db: inout any StoreDatabase) throws(TenderError) -> T in
            try db.readTransaction { () throws(TenderError) -> T in try body(db) }
        }
        if !scan, let result = try writer.withLockIfAvailable(transaction) { return result }
        return try reader.withLock { (db: inout (any StoreDatabase)?) throws(TenderError) -> T in
            if db == nil, let openReader { db = try openReader.open() }
            guard let connection = db else { throw .internal("the store has no reading connection") }
            return try connection.readTransaction { () throws(TenderError) -> T in try body(connection) }
        }
    }

    /// Runs `body` in a write transaction, which first stores the signatures
    /// computed and the audit entries kept since the last one. `lazy`: the
    /// commit does not wait for the disk (``Database/lazyWriteTransaction(_:)``);
    /// the next durable commit flushes it. A durable commit that grew the
    /// ledger replaces the kept checkpoint, if any (``keepCheckpoint(at:home:)``), after the lock is released.
    /// Inside ``readingTogether(_:)`` on this thread, whose read transaction holds the writing connection
    /// already, that transaction ends, this one runs on it, and a new read transaction follows.
    package func write<T: Sendable>(lazy: Bool = false, _ body: (any StoreDatabase) throws(TenderError) -> T) throws(TenderError) -> T {
        if let pin = ReadPin.current(for: ObjectIdentifier(self)) {
            try pin.db.statement("COMMIT").run()
            let outcome = Result { () throws(TenderError) in try writeHolding(pin.db, lazy: lazy, body) }
            try pin.db.statement("BEGIN DEFERRED").run()
            let (result, checkpoint) = try outcome.get()
            if let checkpoint { keep(checkpoint) }
            return result
        }
        let (result, checkpoint) = try writer.withLock { (db: inout any StoreDatabase) throws(TenderError) -> (T, (count: Int64, text: String)?) in
            try writeHolding(db, lazy: lazy, body)
        }
        // Outside the write lock: the next batch commits while the checkpoint file is flushed.
        if let checkpoint { keep(checkpoint) }
        return result
    }

    /// ``write(lazy:_:)``'s transaction on `db`, whose lock the caller holds; answers its result and the checkpoint to keep.
    private func writeHolding<T: Sendable>(
        _ db: any StoreDatabase, lazy: Bool, _ body: (any StoreDatabase) throws(TenderError) -> T
    ) throws(TenderError) -> (T, (count: Int64, text: String)?) {
        // Before anything changes and after (under the writing connection's lock, as ``stateMark()`` is read): a mark
        // taken before this write never equals one taken after it.
        writeGeneration.add(1, ordering: .sequentiallyConsistent)
        defer { writeGeneration.add(1, ordering: .sequentiallyConsistent) }
        var stored: [Int64] = []
        var audited = (count: 0, marked: false)
        var checkpoint: (count: Int64, text: String)?
        let work = { () throws(TenderError) -> T in
            stored = try self.storeComputedSignatures(db)
            audited = try self.storePendingAudit(db)
            let result = try body(db)
            if !lazy { checkpoint = try self.checkpointToKeep(db) }
            return result
        }
        let result: T
        do throws(TenderError) {
            result = lazy ? try db.lazyWriteTransaction(work) : try db.writeTransaction(work)
        } catch {
            // A key created by a transaction rolled back keeps its unrecorded name: no store names it.
            createdKeys.withLock { $0.removeAll() }
            // The answer to its COMMIT lost (PostgreSQL: the session cut while COMMIT waited), the transaction may have kept the
            // audit entries it wrote: read under the person's lock (after it ended) whether it did, so the next write does not
            // write them again. Signatures stored twice are the same row; audit entries would be two.
            if case .outcomeUnknown = error, audited.count > 0, (try? Self.keptAudit(pendingAudit.withLock({ Array($0.prefix(audited.count)) }), db)) == true {
                pendingAudit.withLock { $0.removeFirst(audited.count) }
                if audited.marked { testingMode.withLock { $0?.marked = true } }
            }
            throw error
        }
        let created = createdKeys.withLock { (keys) -> [String] in defer { keys.removeAll() }; return keys }
        if !created.isEmpty { HomeDirectory.promoteKeys(home: home, recorded: created) }
        if !stored.isEmpty { computedSignatures.withLock { for sequence in stored { $0[sequence] = nil } } }
        if audited.count > 0 { pendingAudit.withLock { $0.removeFirst(audited.count) } }
        if audited.marked { testingMode.withLock { $0?.marked = true } }
        return (result, checkpoint)
    }

    /// Whether the store holds `rows`, the audit entries a write transaction whose COMMIT answer was lost wrote, read in a
    /// write transaction of `db` (under the person's lock, so after that transaction ended) that writes nothing, not even what
    /// waits for the store's next write. A transaction keeps all of its rows or none: its last entry is looked for, every
    /// column alike (its millisecond, user, event, intent and detail), as many times as `rows` holds it. An identical entry
    /// kept earlier (the same event in the same millisecond) would be taken for it: that entry is then written once, not twice.
    static func keptAudit(_ rows: [AuditRow], _ db: any StoreDatabase) throws(TenderError) -> Bool {
        guard let last = rows.last else { return false }
        let same = rows.filter { $0.at == last.at && $0.user == last.user && $0.event == last.event && $0.intent == last.intent && $0.detail == last.detail }
        return try db.writeTransaction { () throws(TenderError) -> Bool in
            let row = try db.statement(
                "SELECT count(*) FROM audit WHERE at_ms = ? AND \"user\" = ? AND event = ? AND intent = ? AND detail = ?",
                [last.at, last.user, last.event, last.intent, last.detail])
            guard try row.step() else { return false }
            let found = row.int64(0)
            _ = try row.step()
            return found >= Int64(same.count)
        }
    }

    /// One read transaction for everything `body` reads from this store on the calling thread (directory
    /// and ledger), on the writing connection, whose cache is current, when no thread holds it; else
    /// (a write in progress) each read takes its own transaction as usual, so `body` never waits for a
    /// commit. While it runs, other threads' reads use the reading connection and their writes wait:
    /// `body` must be short and call no host code (``Directory/readingTogether(_:)``).
    public func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        let store = ObjectIdentifier(self)
        if ReadPin.current(for: store) != nil { return try body() }
        let pinned = writer.withLockIfAvailable { (db: inout any StoreDatabase) -> Result<T, TenderError> in
            let connection = db
            return Result { () throws(TenderError) in
                try connection.readTransaction { () throws(TenderError) in try ReadPin.holding(ReadPin(store: store, db: connection), body) }
            }
        }
        guard let pinned else { return try body() }
        return try pinned.get()
    }

    /// Inside ``readingTogether(_:)`` holding the writing connection on this thread: the store's state as this read
    /// transaction sees it, as SQLite's `PRAGMA data_version` on that connection (changed by any other connection's
    /// commit since, this process's or another's) and this store's write transactions (``writeGeneration``: the
    /// connection's own commits, which `data_version` does not count). Nil otherwise (no such read transaction, a
    /// store that cannot tell: PostgreSQL). Equal marks: nothing in the store changed between the two transactions.
    public func stateMark() throws(TenderError) -> DirectoryMark? {
        guard let pin = ReadPin.current(for: ObjectIdentifier(self)), let version = try pin.db.dataVersion() else { return nil }
        return DirectoryMark(dataVersion: version, writes: writeGeneration.load(ordering: .sequentiallyConsistent))
    }
}
