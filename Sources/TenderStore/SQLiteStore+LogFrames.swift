// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// How many write-ahead log frames (database pages) the commits `body` makes on this store write: the
    /// deterministic part of a commit's cost, which `tender bench` reports and tests bound. The log is
    /// checkpointed and emptied first (`PRAGMA wal_checkpoint(TRUNCATE)`), then its frames are counted after
    /// `body`; `body` must write fewer frames than start a checkpoint (``StoreCheckpoints/defaultFrames``, 1,000), or the
    /// count is short. SQLite stores only; nothing else may use the store meanwhile. Throws ``TenderError/store(_:)``
    /// when the log cannot be emptied (a reader holds it), and what `body` throws.
    package func logFrames(_ body: () throws -> Void) throws -> Int64 {
        let emptied = try checkpointLog("PRAGMA wal_checkpoint(TRUNCATE)")
        guard emptied.busy == 0, emptied.frames == 0 else { throw TenderError.store("the write-ahead log could not be emptied to count its frames") }
        try body()
        return try checkpointLog("PRAGMA wal_checkpoint(PASSIVE)").frames
    }

    /// Runs a `wal_checkpoint` pragma on the writing connection: whether it was blocked, and the frames in the log.
    private func checkpointLog(_ sql: String) throws(TenderError) -> (busy: Int64, frames: Int64) {
        try writer.withLock { (db: inout any StoreDatabase) throws(TenderError) -> (busy: Int64, frames: Int64) in
            let row = try db.statement(sql)
            guard try row.step() else { throw .store("\(sql) answered no row") }
            let result = (row.int64(0), row.int64(1))
            _ = try row.step()
            return result
        }
    }
}
