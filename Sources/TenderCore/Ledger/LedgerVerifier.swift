/// Verifies a whole ledger with public keys alone: every signature, every
/// sequence number, every link to the previous entry, every key rotation,
/// and optionally an earlier checkpoint. Pure; the crypto comes through a port.
public struct LedgerVerifier {
    /// What a successful verification saw.
    public struct Report: Equatable, Sendable {
        public let count: Int64
        public let headHash: String
        /// Every key that signed, in order of first use.
        public let keyIDs: [String]

        public var json: JSONValue {
            .object([
                ("valid", .bool(true)), ("records", .number(String(count))), ("headHash", .string(headHash)),
                ("keys", .array(keyIDs.map(JSONValue.string))),
            ])
        }
    }

    private let crypto: any LedgerCrypto
    private var keys: [String: [UInt8]]

    /// A verifier trusting `trustedKeys` (kid → raw Ed25519 public key).
    /// Keys introduced by verified rotation entries are trusted from then on.
    public init(crypto: any LedgerCrypto, trustedKeys: [String: [UInt8]]) {
        self.crypto = crypto
        self.keys = trustedKeys
    }

    /// Verifies `entries` in stored order. Throws ``TenderError/ledgerTampered(_:)``
    /// naming the first bad entry, or the checkpoint, on any failure.
    public mutating func verify(_ entries: [LedgerEntry], checkpoint: String? = nil) throws(TenderError) -> Report {
        var previousHash = LedgerPosition.genesisHash
        var hashes: [String] = []
        hashes.reserveCapacity(entries.count)
        var used: [String] = []
        for (index, entry) in entries.enumerated() {
            let expected = Int64(index) + 1
            do throws(TenderError) {
                try verifyEntry(entry, expectedSequence: expected, previousHash: previousHash, used: &used)
            } catch {
                throw .ledgerTampered("record \(expected): \(error.message)")
            }
            previousHash = try LedgerEntry.hash(ofJWS: entry.jws, crypto: crypto)
            hashes.append(previousHash)
        }
        if let checkpoint { try verifyCheckpoint(checkpoint, hashes: hashes) }
        return Report(count: Int64(entries.count), headHash: previousHash, keyIDs: used)
    }

    private mutating func verifyEntry(
        _ entry: LedgerEntry, expectedSequence: Int64, previousHash: String, used: inout [String]
    ) throws(TenderError) {
        guard entry.sequence == expectedSequence else {
            throw .ledgerTampered("stored at position \(entry.sequence); an entry was deleted, inserted or moved")
        }
        let jws = try CompactJWS(parsing: entry.jws)
        let payload = try verifiedPayload(jws, used: &used)
        guard payload["sequence"] == .number(String(expectedSequence)) else {
            throw .ledgerTampered("its signed sequence number is not \(expectedSequence); an entry was deleted, inserted or moved")
        }
        guard payload["previousHash"]?.stringValue == previousHash else {
            throw .ledgerTampered("it does not link to the entry before it")
        }
        if payload["type"]?.stringValue == "key_rotation" { try acceptRotation(payload) }
    }

    /// The payload of `jws` once its signature checks out with a trusted key.
    private func verifiedPayload(_ jws: CompactJWS, used: inout [String]) throws(TenderError) -> JSONValue {
        guard let key = keys[jws.keyID] else { throw .ledgerTampered("signed by an unknown key \(jws.keyID.prefix(64))") }
        guard crypto.isValidSignature(jws.signature, of: jws.signingInput, publicKey: key) else {
            throw .ledgerTampered("the signature does not verify")
        }
        if !used.contains(jws.keyID) { used.append(jws.keyID) }
        let payload: JSONValue
        do throws(TenderError) { payload = try JSONParser.parse(jws.payload) } catch { throw .ledgerTampered("the payload is not JSON") }
        guard payload.objectMembers != nil else { throw .ledgerTampered("the payload is not a JSON object") }
        return payload
    }

    private mutating func acceptRotation(_ payload: JSONValue) throws(TenderError) {
        guard let kid = payload["newKid"]?.stringValue, let x = payload["newKey"]?["x"]?.stringValue,
            payload["newKey"]?["crv"]?.stringValue == "Ed25519", let raw = Base64URL.decode(x), raw.count == 32
        else { throw .ledgerTampered("a malformed key rotation") }
        guard try JWK.ed25519Thumbprint(publicKey: raw, crypto: crypto) == kid else {
            throw .ledgerTampered("the rotation's key id is not its key's thumbprint")
        }
        keys[kid] = raw
    }

    private func verifyCheckpoint(_ text: String, hashes: [String]) throws(TenderError) {
        var ignored: [String] = []
        let payload: JSONValue
        do throws(TenderError) {
            payload = try verifiedPayload(try CompactJWS(parsing: text), used: &ignored)
        } catch {
            throw .ledgerTampered("checkpoint: \(error.message)")
        }
        guard payload["type"]?.stringValue == "checkpoint", case let .number(countText)? = payload["count"],
            let count = Int(countText), count >= 0, let head = payload["headHash"]?.stringValue
        else { throw .ledgerTampered("checkpoint: not a checkpoint") }
        guard count <= hashes.count else {
            throw .ledgerTampered("the ledger has \(hashes.count) records but the checkpoint covers \(count): it was truncated")
        }
        let expected = count == 0 ? LedgerPosition.genesisHash : hashes[count - 1]
        guard expected == head else {
            throw .ledgerTampered("the first \(count) records differ from the checkpoint: history was rewritten")
        }
    }
}
