// SPDX-License-Identifier: Apache-2.0
/// A payment as it was made: its record JSON and the JWS that signs it, both
/// returned byte for byte as the ledger keeps them.
public struct PaymentRecord: Equatable, Sendable {
    /// The record's compact JSON text (the JWS payload).
    public let json: String
    /// The compact JWS over ``json``.
    public let jws: String
    public let sequence: Int64
    public let idempotencyKey: String

    /// The ledger entry type of a handled intent that moved no money (``PaymentLedger/recordIntent(idempotencyKey:makePayload:)``).
    public static let intentEntryType = "intent"

    public init(json: String, jws: String, sequence: Int64, idempotencyKey: String) {
        self.json = json
        self.jws = jws
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
    }
}
