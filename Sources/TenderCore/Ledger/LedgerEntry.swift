/// One entry of the ledger as stored: its position and its compact JWS.
public struct LedgerEntry: Equatable, Sendable {
    public let sequence: Int64
    public let jws: String

    public init(sequence: Int64, jws: String) {
        self.sequence = sequence
        self.jws = jws
    }

    /// The hash the next entry links to: base64url SHA-256 of the JWS text.
    public static func hash(ofJWS jws: String, crypto: any LedgerCrypto) throws(TenderError) -> String {
        Base64URL.encode(try crypto.sha256(Array(jws.utf8)))
    }
}
