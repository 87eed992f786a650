// SPDX-License-Identifier: Apache-2.0
/// The state of the checkpoint a store keeps in a file (configuration `"checkpointPath"`):
/// where, the ledger length the file covers, and the newer checkpoint waiting while one
/// thread writes (commits do not queue behind each other's file flush; the writer writes
/// the newest waiting one next). Guarded by the store's lock on it.
struct KeptCheckpoint: Sendable {
    /// The file.
    let path: String
    /// The ledger length the file covers (0 until the first is written).
    var count: Int64
    /// Whether a thread is writing the file now.
    var writing = false
    /// The newest checkpoint signed while the file was being written, to write next.
    var pending: (count: Int64, text: String)?

    init(path: String, count: Int64) {
        self.path = path
        self.count = count
    }
}
