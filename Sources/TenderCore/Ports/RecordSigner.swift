/// The port that signs ledger entries with the active private key.
/// Implementations must be safe to call from several threads.
public protocol RecordSigner: Sendable {
    /// The RFC 7638 thumbprint of the signing key, the JWS `kid`.
    var keyID: String { get }
    /// The Ed25519 signature of `message`.
    func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8]
    /// The signatures of several messages, in order; implementations may use several cores.
    func sign(batch messages: [[UInt8]]) throws(TenderError) -> [[UInt8]]
}

extension RecordSigner {
    public func sign(batch messages: [[UInt8]]) throws(TenderError) -> [[UInt8]] {
        var signatures: [[UInt8]] = []
        for message in messages { signatures.append(try sign(message)) }
        return signatures
    }
}
