// SPDX-License-Identifier: Apache-2.0
/// One signature to check: the signature, the signed bytes and the raw Ed25519 public key.
public struct SignatureCheck: Sendable {
    public let signature: [UInt8]
    public let message: [UInt8]
    public let publicKey: [UInt8]

    public init(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) {
        self.signature = signature
        self.message = message
        self.publicKey = publicKey
    }
}

/// The primitives verification needs: SHA-256 and Ed25519 signature checks.
/// Implementations must be safe to call from several threads.
public protocol LedgerCrypto: Sendable {
    /// The SHA-256 digest of `bytes`.
    func sha256(_ bytes: [UInt8]) throws(TenderError) -> [UInt8]
    /// Whether `signature` is a valid Ed25519 signature of `message` by the raw 32-byte `publicKey`.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool
    /// The index of the first check that fails, or nil when all pass; implementations may use several cores.
    func firstInvalid(_ checks: [SignatureCheck]) -> Int?
}

extension LedgerCrypto {
    public func firstInvalid(_ checks: [SignatureCheck]) -> Int? {
        checks.firstIndex { !isValidSignature($0.signature, of: $0.message, publicKey: $0.publicKey) }
    }
}
