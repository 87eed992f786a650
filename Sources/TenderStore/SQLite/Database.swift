// SPDX-License-Identifier: Apache-2.0
internal import CSQLite
import TenderCore

/// One SQLite connection (sqlite3*), closed when released. WAL journal,
/// synchronous=FULL, foreign keys on, and a busy timeout so several
/// processes can share the file. Not thread-safe: its owner serializes use.
final class Database: StoreDatabase {
    /// How long a writer waits for another process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    private let handle: OpaquePointer
    private var cache: [String: Statement] = [:]
    /// The cached statements handed out (``statement(_:_:)``) since a transaction last ended: the only ones that may still
    /// be stepping, so the only ones its end resets (each once), not every statement the connection ever prepared.
    private var handedOut: [Statement] = []
    /// What ``checkpointAfterCommits(_:)`` handed SQLite's WAL hook, retained until the connection closes.
    private var commitHook: Unmanaged<StoreCheckpoints>?
    /// Whether this connection writes (its close, when the last, checkpoints and empties the log it keeps).
    private let writes: Bool

    /// Opens (creating) the database file at `path`; with `readOnly`, opens it
    /// read-only (SQLITE_OPEN_READONLY, no pragma that writes), and with
    /// `immutable` as well (`immutable=1`: for a home on read-only media
    /// whose WAL was checkpointed, where SQLite could not create its -shm),
    /// or with `readOnlyShm` (`readonly_shm=1`: the WAL's -shm index is opened
    /// read-only, so reading through the WAL writes nothing, not even the
    /// index; SQLite reads the WAL itself when no writer keeps the index).
    init(path: String, readOnly: Bool = false, immutable: Bool = false, readOnlyShm: Bool = false) throws(TenderError) {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        var name = path
        if immutable || readOnlyShm {
            flags |= SQLITE_OPEN_URI
            var escaped = ""
            for character in path {
                switch character {
                case "%": escaped += "%25"
                case "?": escaped += "%3f"
                case "#": escaped += "%23"
                default: escaped.append(character)
                }
            }
            name = "file:" + escaped + (immutable ? "?immutable=1" : "?mode=ro&readonly_shm=1")
        }
        let code = sqlite3_open_v2(name, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError.error(code, db, during: "open")
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        writes = !readOnly
        sqlite3_busy_timeout(db, Database.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(db, 1)
        if readOnly { return }
        // The store's -wal and -shm are kept when the last connection closes (SQLITE_FCNTL_PERSIST_WAL): it still
        // checkpoints the whole log into the store file and syncs it, then truncates the log to zero bytes
        // (journal_size_limit 0, set in deinit). The next open reuses both files instead of creating them again: a host
        // opening and closing engines on many homes pays no file creation and removal each time (two of each an engine).
        // An empty -wal holds nothing: what the store holds is in its file, as when the log was removed.
        var persist: Int32 = 1
        _ = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        try enterWAL()
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Turns a new file to WAL. Several first opens of one new store at once: SQLite answers SQLITE_BUSY without
    /// calling the busy handler where waiting could deadlock (a shared lock waiting to become exclusive), so the
    /// change is tried again, every millisecond, within the busy timeout.
    private func enterWAL() throws(TenderError) {
        var waited: Int32 = 0
        while true {
            let code = sqlite3_exec(handle, "PRAGMA journal_mode=WAL", nil, nil, nil)
            if code == SQLITE_OK { return }
            guard code & 0xff == SQLITE_BUSY, waited < Database.busyTimeoutMilliseconds else {
                throw SQLiteError.error(code, handle, during: "execute")
            }
            sqlite3_sleep(1)
            waited += 1
        }
    }

    deinit {
        handedOut.removeAll()
        cache.removeAll()
        if commitHook != nil { sqlite3_wal_hook(handle, nil, nil) }
        // Closing last, the connection's checkpoint leaves a kept log empty: truncated to zero bytes.
        if writes { sqlite3_exec(handle, "PRAGMA journal_size_limit=0", nil, nil, nil) }
        sqlite3_close_v2(handle)
        commitHook?.release()
    }

    /// Turns SQLite's automatic checkpoint off on this connection and lets `checkpoints` decide after each
    /// commit (SQLite's WAL hook, called on the committing thread with the log's frames once the write lock is
    /// released): a worker's checkpoint, or none, or, past its bound, a passive one here, as the automatic one did.
    /// `checkpoints` is retained until the connection closes. Call once, before the first write.
    func checkpointAfterCommits(_ checkpoints: StoreCheckpoints) {
        let retained = Unmanaged.passRetained(checkpoints)
        commitHook?.release()
        commitHook = retained
        sqlite3_wal_hook(handle, Database.walHook, retained.toOpaque())
    }

    /// SQLite's WAL hook: asks the store's ``StoreCheckpoints`` whether this commit checkpoints the log itself.
    private static let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, db, name, frames in
        guard let context else { return SQLITE_OK }
        let checkpoints = Unmanaged<StoreCheckpoints>.fromOpaque(context).takeUnretainedValue()
        if checkpoints.afterCommit(frames: Int(frames)) {
            let (code, log, done) = passiveCheckpoint(db, name)
            checkpoints.noteInline(code: code, log: log, checkpointed: done)
        }
        // As SQLite's own hook: a checkpoint that could not run does not fail the commit, which is durable already.
        return SQLITE_OK
    }

    /// A passive checkpoint of the log into the database file (`sqlite3_wal_checkpoint_v2`, PASSIVE: it waits for
    /// no reader or writer, copies what no reader still needs, and syncs the log first and the database file after, as
    /// `synchronous=FULL` asks): SQLite's result code, the frames in the log and the frames checkpointed.
    func checkpointPassive() -> (code: Int32, log: Int, checkpointed: Int) {
        Self.passiveCheckpoint(handle, "main")
    }

    /// The passive checkpoint of `db`'s database `name`, for ``checkpointPassive()`` and the WAL hook's committer.
    private static func passiveCheckpoint(_ db: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> (code: Int32, log: Int, checkpointed: Int) {
        var log: Int32 = 0
        var done: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, &log, &done)
        return (code, Int(log), Int(done))
    }

    /// Makes the operation running on this connection on another thread stop at its next check (a checkpoint stops
    /// between pages, SQLITE_INTERRUPT, having moved nothing the log does not still hold). The one call SQLite allows
    /// from another thread while the connection is in use; never after the connection closed.
    func interrupt() {
        sqlite3_interrupt(handle)
    }

    /// `PRAGMA data_version` inside the running read transaction: it changes when another connection (this process's or
    /// another's) committed since this connection's last transaction, never for this connection's own commits.
    func dataVersion() throws(TenderError) -> Int64? {
        let row = try statement("PRAGMA data_version")
        guard try row.step() else { return nil }
        let version = row.int64(0)
        _ = try row.step()
        return version
    }

    /// Runs SQL without arguments (one or more statements), ignoring rows.
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    func execute(_ sql: String) throws(TenderError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError.error(code, handle, during: "execute") }
    }

    /// A prepared statement for `sql`, reused across calls, with `arguments` bound.
    func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> Statement {
        let statement: Statement
        if let cached = cache[sql] {
            statement = cached
        } else {
            statement = try Statement(db: handle, sql: sql)
            cache[sql] = statement
        }
        if !statement.handedOut {
            statement.handedOut = true
            handedOut.append(statement)
        }
        return try statement.bind(arguments)
    }

    /// How many statements the end of the running transaction resets: the ones handed out since the last one ended.
    var statementsToReset: Int { handedOut.count }

    /// Resets every statement handed out since the last transaction ended (no statement keeps reading past its end).
    private func resetHandedOut() {
        for statement in handedOut {
            statement.reset()
            statement.handedOut = false
        }
        handedOut.removeAll(keepingCapacity: true)
    }

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE, so the write lock
    /// is taken up front), committing when it returns and rolling back when it throws.
    func writeTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// A write transaction whose commit does not wait for the disk
    /// (synchronous=NORMAL for it alone): in WAL mode its pages stay in the
    /// log, safe from a crash of the process, and the next durable commit on
    /// the file flushes them with its own. A power loss before then can lose it.
    func lazyWriteTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try statement("PRAGMA synchronous=NORMAL").run()
        let result: Result<T, TenderError>
        do throws(TenderError) { result = .success(try transaction(begin: "BEGIN IMMEDIATE", body)) } catch { result = .failure(error) }
        // Every other transaction of this connection is durable again before anything else runs on it.
        try statement("PRAGMA synchronous=FULL").run()
        return try result.get()
    }

    /// Runs `body` in a read transaction, a consistent snapshot.
    func readTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN DEFERRED", body)
    }

    private func transaction<T>(begin: String, _ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try statement(begin).run()
        do throws(TenderError) {
            let result = try body()
            // No statement may keep reading past the end of the transaction.
            resetHandedOut()
            try statement("COMMIT").run()
            return result
        } catch {
            resetHandedOut()
            try? execute("ROLLBACK")
            throw error
        }
    }
}
