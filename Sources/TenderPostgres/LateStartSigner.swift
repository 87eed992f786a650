// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A signer of the PostgreSQL store (``PostgresKeys``): `signer`'s own signatures and seals, whose batches start only
/// when their first message comes (``Batch``). The store opens a batch as its transaction begins, and a batch of
/// `signer`'s may start a worker of the process's pool that waits for the message, spinning; on SQLite the message comes
/// within microseconds, on PostgreSQL after the transaction's reads, round trips to the server that the spinning worker
/// would slow down, taking a core the server needs (2 on the bench's machine). Started at the first message, the worker
/// signs while the transaction's writes and COMMIT travel, as before. The signatures are the same (Ed25519 is
/// deterministic). Its worker waits for each later message asleep, not spinning (``SigningWait/sleeping``):
/// between two messages the store waits for the server (a later submission's checks are read in round trips of their
/// own), and after the last one for its COMMIT, on the cores the server needs. Thread-safe as `signer`; a batch belongs
/// to one thread.
struct LateStartSigner: RecordSigner {
    let signer: any RecordSigner

    var keyID: String { signer.keyID }

    func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try signer.sign(message) }

    func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try signer.seal(message) }

    func startBatch(capacity: Int) -> any SigningBatch { Batch(signer: signer, capacity: capacity) }

    /// `signer`'s batch, started at the first ``add(_:)``; a batch given no message starts none.
    final class Batch: SigningBatch {
        private let signer: any RecordSigner
        private let capacity: Int
        /// The signer's batch, once the first message came.
        private(set) var started: (any SigningBatch)?
        private var ended = false

        init(signer: any RecordSigner, capacity: Int) {
            self.signer = signer
            self.capacity = capacity
        }

        deinit { started?.abandon() }

        func add(_ message: [UInt8]) throws(TenderError) {
            guard !ended else { throw .internal("a signing batch got a message after it ended") }
            if started == nil { started = signer.startBatch(capacity: capacity, waiting: .sleeping) }
            try started?.add(message)
        }

        func finish() throws(TenderError) -> [[UInt8]] {
            guard !ended else { throw .internal("a signing batch finished twice") }
            ended = true
            return try started?.finish() ?? []
        }

        func abandon() {
            ended = true
            started?.abandon()
        }
    }
}
