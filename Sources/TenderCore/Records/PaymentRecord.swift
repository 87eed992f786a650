/// A payment as it was made: the JSON text kept verbatim in the ledger.
public struct PaymentRecord: Equatable, Sendable {
    /// The record's compact JSON text, stored and returned byte for byte.
    public let json: String
    public let sequence: Int64
    public let idempotencyKey: String

    public init(json: String, sequence: Int64, idempotencyKey: String) {
        self.json = json
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
    }
}
