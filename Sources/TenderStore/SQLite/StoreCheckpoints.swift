// SPDX-License-Identifier: Apache-2.0
internal import CSQLite
import Synchronization
import TenderCore

/// One SQLite store's checkpoints, taken off its committers' path. The writing connection's automatic checkpoint is off
/// (``Database/checkpointAfterCommits(_:)``); after each commit its WAL hook asks ``afterCommit(frames:)``:
/// - under ``frames`` frames in the log, nothing;
/// - from there, the shared ``WALCheckpointer`` runs a PASSIVE checkpoint on a worker thread, on a connection of
///   this store's own (opened for each checkpoint and closed after it, with the same checks as the reading one,
///   ``LazyReader``; SQLite forbids using one connection from two threads at once, and the writing one is the
///   committers');
/// - from ``bound`` frames (the worker lags, or a reader pins the log), or when no worker can run, the committer
///   checkpoints itself, PASSIVE, as SQLite's automatic checkpoint did: the log never grows without bound.
///
/// Durability is unchanged: the checkpoint connection is `synchronous=FULL` (the log is synced before its frames are
/// copied, the database file after), and each commit still syncs the log. ``close()`` (the store's deinit) stops a
/// running checkpoint (``Database/interrupt()``), waits for it, and closes the connection, before the store's own
/// connections close (the last one checkpoints and removes the log, as before). Thread-safe.
final class StoreCheckpoints: @unchecked Sendable {
    /// The log's frames from which a worker checkpoints (SQLite's automatic checkpoint's default).
    static let defaultFrames = 1000
    /// The log's frames from which the committer checkpoints itself.
    static let defaultBound = 4000
    /// The fewest frames the log grows by after a checkpoint before the next is asked (it is ``frames`` when that is
    /// more: 1,000 by default). While payments keep coming, a passive checkpoint copies what was committed before it
    /// started but cannot restart the log (frames were added meanwhile); the log then grows, a worker copying every
    /// ``frames`` more, until the committer at the bound copies the little left and the next write starts the log again.
    /// So a steady stream makes as many checkpoints (and store-file syncs) as SQLite's automatic one did, three in four
    /// of them off its path: asked every 250 frames, they were three times as many, and their syncs slowed the log's.
    static let retryFrames = 250

    /// Opens the checkpoint connection, checking the store file is still the one the store opened.
    private let opener: LazyReader
    private let framesSetting: Atomic<Int>
    private let boundSetting: Atomic<Int>
    /// No worker checkpoint is asked for below this many frames (set after one that left frames behind).
    private let retryAt = Atomic<Int>(0)
    private let background = Atomic<Int>(0)
    private let inline = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)

    // Guarded by WALCheckpointer.shared's mutex.
    /// The checkpoint connection while a worker's checkpoint runs; set and read under the checkpointer's mutex, used by
    /// the one worker running.
    var connection: Database?
    var queued = false
    var running = false
    var closed = false
    /// Counted among the checkpointer's open stores (until ``close()``).
    let registered: Bool

    /// Checkpoints for the store file at `opener`'s path (the writing connection's file).
    init(opener: LazyReader, frames: Int = StoreCheckpoints.defaultFrames, bound: Int = StoreCheckpoints.defaultBound) {
        self.opener = opener
        framesSetting = Atomic(frames)
        boundSetting = Atomic(bound)
        WALCheckpointer.shared.register()
        registered = true
    }

    deinit {
        // Never closed (the store's open failed after these were made): no longer counted among the open stores.
        if registered, !closed { WALCheckpointer.shared.forget() }
    }

    /// The frames from which a worker checkpoints.
    var frames: Int { framesSetting.load(ordering: .relaxed) }
    /// The frames from which the committer checkpoints itself.
    var bound: Int { boundSetting.load(ordering: .relaxed) }
    /// The frames the log grows by after a checkpoint before a worker is asked again.
    private var retry: Int { max(Self.retryFrames, frames) }

    /// Sets both thresholds (tests and measurements; `bound` at least `frames`).
    func set(frames: Int, bound: Int) {
        framesSetting.store(max(1, frames), ordering: .relaxed)
        boundSetting.store(max(max(1, frames), bound), ordering: .relaxed)
    }

    /// Called by the WAL hook on the committing thread, the write lock released, with the log's `frames`: whether the
    /// committer checkpoints now (past the bound, or no worker can); else a worker may have been asked to.
    func afterCommit(frames logFrames: Int) -> Bool {
        if logFrames >= bound { return true }
        guard logFrames >= frames else {
            // The log started again: the next checkpoint is asked at the threshold.
            if retryAt.load(ordering: .relaxed) != 0 { retryAt.store(0, ordering: .relaxed) }
            return false
        }
        guard logFrames >= retryAt.load(ordering: .relaxed) else { return false }
        return !WALCheckpointer.shared.request(self)
    }

    /// The committer's own checkpoint ran (SQLite's `code`, the log's frames and those checkpointed).
    func noteInline(code: Int32, log: Int, checkpointed: Int) {
        inline.add(1, ordering: .relaxed)
        note(code: code, log: log, checkpointed: checkpointed)
    }

    /// On a worker, the one running this store's checkpoint: opens the connection if needed, then checkpoints.
    func run(storing: (Database) -> Void) {
        var db = connection
        if db == nil {
            guard let opened = try? opener.open() as? Database else {
                failed.add(1, ordering: .relaxed)
                retryAt.store(frames + retry, ordering: .relaxed)
                return
            }
            storing(opened)
            db = opened
        }
        guard let db else { return }
        let (code, log, done) = db.checkpointPassive()
        background.add(1, ordering: .relaxed)
        note(code: code, log: log, checkpointed: done)
    }

    private func note(code: Int32, log: Int, checkpointed: Int) {
        if code != SQLITE_OK { failed.add(1, ordering: .relaxed) }
        // Asked again once the log grew (commits meanwhile, a reader's snapshot, a busy checkpointer), or started again.
        retryAt.store(max(log, frames) + retry, ordering: .relaxed)
        _ = checkpointed
    }

    /// Checkpoints run so far: by workers, by committers, and those that failed or were refused (SQLITE_BUSY when another
    /// process checkpoints, SQLITE_INTERRUPT at close, a connection that could not open).
    var counts: (background: Int, inline: Int, failed: Int) {
        (background.load(ordering: .relaxed), inline.load(ordering: .relaxed), failed.load(ordering: .relaxed))
    }

    /// Stops asking workers, stops and waits for a running checkpoint, and closes the connection. Idempotent.
    func close() {
        WALCheckpointer.shared.cancel(self)
    }
}
