/// The primitives verification needs: SHA-256 and Ed25519 signature checks.
/// Implementations must be safe to call from several threads.
public protocol LedgerCrypto: Sendable {
    /// The SHA-256 digest of `bytes`.
    func sha256(_ bytes: [UInt8]) throws(TenderError) -> [UInt8]
    /// Whether `signature` is a valid Ed25519 signature of `message` by the raw 32-byte `publicKey`.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool
}
