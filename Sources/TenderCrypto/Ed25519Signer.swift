// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The ``RecordSigner`` port on an OpenSSL Ed25519 private key; batches are
/// signed on every core while they are built. Thread-safe.
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

    public func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try key.seal(message) }

    /// Signs as messages are added, on the pool's workers and at finish on the caller.
    public func startBatch(capacity: Int) -> any SigningBatch { ParallelSigningBatch(key: key, capacity: capacity) }

    /// As ``startBatch(capacity:)``, its worker waiting for each message as `waiting` says: `.sleeping` for a caller that
    /// waits for a database server between its messages (tenderd's PostgreSQL store), so no core spins meanwhile.
    public func startBatch(capacity: Int, waiting: SigningWait) -> any SigningBatch {
        ParallelSigningBatch(key: key, capacity: capacity, waiting: waiting)
    }
}
