// SPDX-License-Identifier: Apache-2.0
/// The port that keeps the private signing keys. The ledger records which
/// key is active; the key store holds the secrets. Thread-safe.
public protocol KeyStore: Sendable {
    /// Creates and durably stores a new private key; returns its id and raw public key.
    func createKey() throws(TenderError) -> (keyID: String, publicKey: [UInt8])
    /// The signer of the stored private key `keyID`. Throws ``TenderError/keyFile(_:)``
    /// when the key is missing or its file is unsafe.
    func signer(keyID: String) throws(TenderError) -> any RecordSigner
    /// ``signer(keyID:)``, given the public key the store records for `keyID`: a key store may take it instead of
    /// deriving it from the private key, only once it checked that the public key is the one `keyID` names (its
    /// thumbprint); otherwise it derives it. The default ignores it.
    func signer(keyID: String, recordedPublicKey: [UInt8]) throws(TenderError) -> any RecordSigner
    /// Destroys a private key that no longer signs.
    func destroyKey(keyID: String) throws(TenderError)
}

extension KeyStore {
    /// ``signer(keyID:)``: the recorded public key is not used.
    public func signer(keyID: String, recordedPublicKey: [UInt8]) throws(TenderError) -> any RecordSigner { try signer(keyID: keyID) }
}
