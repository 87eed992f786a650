import TenderCore

/// The ``RecordSigner`` port on an OpenSSL Ed25519 private key; batches are
/// signed on every core. Thread-safe.
public final class Ed25519Signer: RecordSigner {
    public let keyID: String
    public let publicKey: [UInt8]
    private let key: Ed25519PrivateKey

    /// A signer whose `kid` is the RFC 7638 thumbprint of `key`'s public key.
    public init(key: Ed25519PrivateKey) throws(TenderError) {
        self.key = key
        publicKey = try key.publicKeyBytes()
        keyID = try JWK.ed25519Thumbprint(publicKey: publicKey, crypto: OpenSSLLedgerCrypto())
    }

    public func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try key.sign(message) }

    public func sign(batch messages: [[UInt8]]) throws(TenderError) -> [[UInt8]] {
        guard messages.count > 1 else {
            var single: [[UInt8]] = []
            for message in messages { single.append(try key.sign(message)) }
            return single
        }
        let results = UnsafeMutableBufferPointer<Result<[UInt8], TenderError>>.allocate(capacity: messages.count)
        defer { results.deallocate() }
        let key = self.key
        WorkerPool.shared.forEach(messages.count) { index in
            let outcome: Result<[UInt8], TenderError>
            do throws(TenderError) { outcome = .success(try key.sign(messages[index])) } catch { outcome = .failure(error) }
            results.initializeElement(at: index, to: outcome)
        }
        defer { _ = results.deinitialize() }
        var signatures: [[UInt8]] = []
        signatures.reserveCapacity(messages.count)
        for result in results { signatures.append(try result.get()) }
        return signatures
    }
}
