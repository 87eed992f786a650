// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// The checkpoints of this store's log so far: run by the process's workers, run by committers (past the bound, or
    /// no worker), and those that failed or were refused (another process checkpointing, a close interrupting one).
    /// All zero for a store that does not write or is not SQLite. Thread-safe.
    package var checkpointCounts: (background: Int, inline: Int, failed: Int) {
        checkpoints?.counts ?? (0, 0, 0)
    }

    /// Sets the log's frames from which a worker checkpoints and from which the committer does itself (defaults 1,000 and
    /// 4,000), for tests and measurements. Nothing for a store without checkpoints of its own. Thread-safe.
    package func checkpointFrames(worker: Int, committer: Int) {
        checkpoints?.set(frames: worker, bound: committer)
    }

    /// The process's checkpoint threads: started so far and alive now (``WALCheckpointer``). Thread-safe.
    package static var checkpointThreads: (started: Int, live: Int) { WALCheckpointer.shared.threads }
}
