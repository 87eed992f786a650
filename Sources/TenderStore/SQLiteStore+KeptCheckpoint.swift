// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A checkpoint kept outside the home automatically (configuration
/// `"checkpointPath"`): after every durable commit that grew the ledger, the
/// store signs a checkpoint of it and replaces the file (``CheckpointFile``).
/// Verify then checks the ledger against that file when given no checkpoint,
/// which catches the last records removed (and the balances fixed to match),
/// a change no signature inside the store can show.
extension SQLiteStore {
    /// Keeps a checkpoint at `path` from now on, writing one at once when the ledger is not empty.
    /// `path` must be absolute and outside `home`; throws ``TenderError/invalidArgument(_:)`` otherwise,
    /// and ``TenderError/store(_:)`` when the first checkpoint cannot be written. A later write that fails
    /// does not fail the payment that was committed: the next commit tries again.
    public func keepCheckpoint(at path: String, home: String) throws(TenderError) {
        guard path.hasPrefix("/"), !path.contains("\0") else { throw .invalidArgument("configuration.checkpointPath must be an absolute path") }
        let inside = home.hasSuffix("/") ? home : home + "/"
        guard !path.hasPrefix(inside), !(home.hasPrefix("/") && path == home) else {
            throw .invalidArgument("configuration.checkpointPath must be outside the home: whoever can change the home could change it too")
        }
        var count: Int64 = 0
        if !isReadOnly {
            // Written before the store keeps it, so this first one's failure is the caller's error.
            count = try read { (db) throws(TenderError) in try Self.head(db).sequence }
            if count > 0 { try CheckpointFile.write(try checkpoint(), to: path) }
        }
        checkpointFile.withLock { $0 = (path, count) }
    }

    /// The checkpoint a transaction that grew the ledger past the kept one must leave, signed inside it; nil otherwise.
    func checkpointToKeep(_ db: Database) throws(TenderError) -> (count: Int64, text: String)? {
        guard let kept = checkpointFile.withLock({ $0 }) else { return nil }
        let head = try Self.head(db)
        guard head.sequence > kept.count else { return nil }
        let payload = Checkpoint.payload(count: head.sequence, headHash: head.hash, createdAtMilliseconds: clock.nowMilliseconds())
        return (head.sequence, try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db)).text)
    }

    /// Replaces the kept checkpoint with `checkpoint` unless a newer one is there already (another thread's).
    func keep(_ checkpoint: (count: Int64, text: String)) {
        checkpointFile.withLock { kept in
            guard let file = kept, checkpoint.count > file.count else { return }
            do throws(TenderError) {
                try CheckpointFile.write(checkpoint.text, to: file.path)
                kept?.count = checkpoint.count
            } catch {
                // The payment is committed; the next commit writes a newer checkpoint.
            }
        }
    }

    /// The kept checkpoint, when one is configured and written.
    func keptCheckpoint() throws(TenderError) -> String? {
        guard let path = checkpointFile.withLock({ $0?.path }) else { return nil }
        return try CheckpointFile.read(path)
    }
}
