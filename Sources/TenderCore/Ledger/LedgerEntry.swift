// SPDX-License-Identifier: Apache-2.0
/// One entry of the ledger as stored: its position and its compact JWS.
public struct LedgerEntry: Equatable, Sendable {
    public let sequence: Int64
    public let jws: String

    public init(sequence: Int64, jws: String) {
        self.sequence = sequence
        self.jws = jws
    }

    /// The hash the next entry links to: base64url SHA-256 of this entry's
    /// signed payload (the record JSON). Linking the signed content rather than
    /// the signature keeps the chain tamper-evident while letting a batch of
    /// entries be signed in parallel.
    public static func hash(ofPayload payload: [UInt8], crypto: any LedgerCrypto) throws(TenderError) -> String {
        Base64URL.encode(try crypto.sha256(payload))
    }
}
