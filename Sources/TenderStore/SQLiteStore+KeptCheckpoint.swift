// SPDX-License-Identifier: Apache-2.0
internal import Glibc
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
    /// ``TenderError/ledgerTampered(_:)`` (writing nothing) when a store open for writing no longer holds
    /// what the checkpoint already there covers, and ``TenderError/store(_:)`` when the first checkpoint cannot be written. A later write that fails
    /// does not fail the payment that was committed: the next commit tries again.
    public func keepCheckpoint(at path: String, home: String) throws(TenderError) {
        guard path.hasPrefix("/"), !path.contains("\0") else { throw .invalidArgument("configuration.checkpointPath must be an absolute path") }
        // Compared as resolved paths (symbolic links, a relative home), the file's directory and the home.
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let resolvedHome = Self.resolved(home)
        let resolvedDirectory = Self.resolved(directory.isEmpty ? "/" : directory)
        guard resolvedDirectory != resolvedHome, !resolvedDirectory.hasPrefix(resolvedHome.hasSuffix("/") ? resolvedHome : resolvedHome + "/") else {
            throw .invalidArgument("configuration.checkpointPath must be outside the home: whoever can change the home could change it too")
        }
        var count: Int64 = 0
        if !isReadOnly {
            // The ledger must still extend the checkpoint kept there, or writing a new one would erase the evidence.
            if let kept = try CheckpointFile.read(path) { try checkExtends(kept, path: path) }
            // Written before the store keeps it, so this first one's failure is the caller's error.
            count = try read { (db) throws(TenderError) in try Self.head(db).sequence }
            if count > 0 { try CheckpointFile.write(try checkpoint(), to: path) }
        }
        checkpointFile.withLock { $0 = KeptCheckpoint(path: path, count: count) }
    }

    /// `path` with its symbolic links and relative parts resolved, or as given when it cannot be.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Throws ``TenderError/ledgerTampered(_:)`` unless the ledger holds at least the records `kept`
    /// (a checkpoint's JWS) covers, the last of them with the hash it names. A quick check of the stored
    /// hashes, not a verification: verify checks the signatures and links.
    private func checkExtends(_ kept: String, path: String) throws(TenderError) {
        let payload: JSONValue
        do throws(TenderError) { payload = try JSONParser.parse(try CompactJWS(parsing: kept).payload) } catch {
            throw .ledgerTampered("the checkpoint kept at \(path) is not a checkpoint: \(error.message)")
        }
        guard payload["type"]?.stringValue == "checkpoint", case let .number(text)? = payload["count"], let count = Int64(text), count >= 0,
            let head = payload["headHash"]?.stringValue
        else { throw .ledgerTampered("the checkpoint kept at \(path) is not a checkpoint") }
        let stored = try read { (db) throws(TenderError) -> (Int64, String?) in
            let length = try Self.head(db).sequence
            guard count > 0 else { return (length, LedgerPosition.genesisHash) }
            let row = try db.statement("SELECT hash FROM ledger WHERE sequence = ?", [count])
            guard try row.step() else { return (length, nil) }
            let hash = row.text(0)
            _ = try row.step()
            return (length, hash)
        }
        guard stored.0 >= count, stored.1 == head else {
            throw .ledgerTampered(
                "the checkpoint kept at \(path) covers \(count) records, but the ledger holds \(stored.0)"
                    + (stored.0 >= count ? " and differs from it" : "") + ": records were removed or rewritten (tender verify --checkpoint \(path))")
        }
    }

    /// The checkpoint a transaction that grew the ledger past the kept one must leave, signed inside it; nil otherwise.
    func checkpointToKeep(_ db: any StoreDatabase) throws(TenderError) -> (count: Int64, text: String)? {
        guard let kept = checkpointFile.withLock({ $0 }) else { return nil }
        let head = try Self.head(db)
        guard head.sequence > kept.count else { return nil }
        let payload = Checkpoint.payload(
            count: head.sequence, headHash: head.hash, createdAtMilliseconds: clock.nowMilliseconds(), firstKeyID: try Self.firstKeyID(db))
        return (head.sequence, try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db)).text)
    }

    /// Replaces the kept checkpoint with `checkpoint` unless a newer one is there already. While another
    /// thread writes the file, `checkpoint` waits as the newest pending one, which that thread writes next:
    /// a commit never queues behind another commit's file flush.
    func keep(_ checkpoint: (count: Int64, text: String)) {
        var next: (path: String, checkpoint: (count: Int64, text: String))? = checkpointFile.withLock { state in
            guard var kept = state, checkpoint.count > kept.count else { return nil }
            if kept.writing {
                if checkpoint.count > kept.pending?.count ?? 0 { kept.pending = checkpoint }
                state = kept
                return nil
            }
            kept.writing = true
            state = kept
            return (kept.path, checkpoint)
        }
        while let (path, checkpoint) = next {
            // The payment is committed: a write that fails is left for the next commit to do.
            let written = (try? CheckpointFile.write(checkpoint.text, to: path)) != nil
            next = checkpointFile.withLock { state in
                guard var kept = state else { return nil }
                if written, checkpoint.count > kept.count { kept.count = checkpoint.count }
                let pending = kept.pending
                kept.pending = nil
                if let pending, pending.count > kept.count {
                    state = kept
                    return (kept.path, pending)
                }
                kept.writing = false
                state = kept
                return nil
            }
        }
    }

    /// The kept checkpoint, when one is configured and written.
    func keptCheckpoint() throws(TenderError) -> String? {
        guard let path = checkpointFile.withLock({ $0?.path }) else { return nil }
        return try CheckpointFile.read(path)
    }
}
