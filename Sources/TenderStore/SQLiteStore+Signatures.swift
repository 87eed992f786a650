// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A batch of payments is committed while its signatures are computed on the
/// other cores, and the signatures are stored by the next write transaction.
/// Until then a record's `jws` column holds its signing input and a dot, and
/// `seal` a MAC of that input under a secret derived from the signing key
/// (``RecordSigner/seal(_:)``). Ed25519 is deterministic, so a record is
/// signed again, by anyone holding the key, into the very JWS its payer was
/// handed: readers complete such records as they read them, and an open for
/// writing (and a key rotation) signs and stores them. The seal keeps a row
/// written into the store by anyone without the key from being signed.
extension SQLiteStore {
    /// Stores, inside the caller's write transaction, the signatures this
    /// store computed since the last one; returns their sequences (to forget
    /// once the transaction commits).
    func storeComputedSignatures(_ db: any StoreDatabase) throws(TenderError) -> [Int64] {
        let computed = computedSignatures.withLock { $0 }
        guard !computed.isEmpty else { return [] }
        for (sequence, jws) in computed {
            try db.statement("UPDATE ledger SET jws = ?, seal = NULL WHERE sequence = ? AND seal IS NOT NULL", [jws, sequence]).run()
        }
        return Array(computed.keys)
    }

    /// Signs and stores, inside the caller's write transaction, every record
    /// committed without its signature whose seal checks (a committing process
    /// that ended first, or one still running: the signature is the same);
    /// with `noting`, lists them in `resigned` for verify's report. A record
    /// whose seal does not check, or whose key is gone, is left as it is:
    /// verify names it. Returns the sequences signed.
    @discardableResult
    func signUnsignedRecords(_ db: any StoreDatabase, noting: Bool) throws(TenderError) -> [Int64] {
        let rows = try db.statement("SELECT sequence, jws, seal FROM ledger WHERE seal IS NOT NULL ORDER BY sequence").rows {
            (sequence: $0.int64(0), jws: $0.text(1) ?? "", seal: $0.text(2) ?? "")
        }
        var signed: [Int64] = []
        for row in rows {
            guard let jws = try? signUnsigned(row.jws, seal: row.seal, sequence: row.sequence) else { continue }
            try db.statement("UPDATE ledger SET jws = ?, seal = NULL WHERE sequence = ?", [jws, row.sequence]).run()
            if noting {
                try db.statement("INSERT INTO resigned (sequence, at_ms) VALUES (?, ?) ON CONFLICT (sequence) DO NOTHING", [row.sequence, clock.nowMilliseconds()]).run()
            }
            signed.append(row.sequence)
        }
        return signed
    }

    /// Whether any record waits for its stored signature.
    func hasUnsignedRecords() throws(TenderError) -> Bool {
        try read { (db) throws(TenderError) -> Bool in
            let row = try db.statement("SELECT 1 FROM ledger WHERE seal IS NOT NULL LIMIT 1")
            let found = try row.step()
            if found { _ = try row.step() }
            return found
        }
    }

    /// The JWS of a stored record: `stored` itself once signed (`seal` nil),
    /// else the signature this store computed, else one computed now.
    func completedJWS(_ stored: String, seal: String?, sequence: Int64) throws(TenderError) -> String {
        guard let seal else { return stored }
        return try signUnsigned(stored, seal: seal, sequence: sequence)
    }

    /// The whole JWS of a record stored as its signing input and a dot, once
    /// its seal checks. Throws ``TenderError/ledgerTampered(_:)`` when the seal
    /// does not check, ``TenderError/keyFile(_:)`` naming the record when its key cannot be read.
    private func signUnsigned(_ stored: String, seal: String, sequence: Int64) throws(TenderError) -> String {
        let bytes = Array(stored.utf8)
        guard let end = bytes.lastIndex(of: UInt8(ascii: ".")) else { throw .ledgerTampered("record \(sequence): not a compact JWS") }
        let input = Array(bytes[..<end])
        if let computed = computedSignatures.withLock({ $0[sequence] }), computed.utf8.starts(with: input) { return computed }
        let keyID = try CompactJWS(parsing: stored).keyID
        let signer: any RecordSigner
        do throws(TenderError) { signer = try keys.signer(keyID: keyID) } catch {
            throw .keyFile(
                "record \(sequence) was committed without its stored signature, and its key cannot be read here (\(error.message)): "
                    + "open the store for writing where its key is, which signs it")
        }
        guard let mark = Base64URL.decode(seal), Self.same(mark, try signer.seal(input)) else {
            throw .ledgerTampered("record \(sequence): stored without its signature, and its seal does not check")
        }
        return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(try signer.sign(input))
    }

    /// Byte equality in time independent of where the first difference is.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The records another open signed again after their commit, in order.
    func resignedRecords() throws(TenderError) -> [Int64] {
        try read { (db) throws(TenderError) in try db.statement("SELECT sequence FROM resigned ORDER BY sequence").rows { $0.int64(0) } }
    }
}
