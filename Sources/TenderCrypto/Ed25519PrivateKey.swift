// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import Synchronization
import TenderCore

/// An Ed25519 private key (an OpenSSL EVP_PKEY), freed when released.
/// Immutable once made: signing from several threads at once is safe.
public final class Ed25519PrivateKey: @unchecked Sendable {
    private let pkey: OpaquePointer
    /// Signing contexts already bound to the key (EVP_DigestSignInit), each
    /// used by one thread at a time; a one-shot EVP_DigestSign leaves a context
    /// ready for the next message.
    private let contexts = PthreadLocked<[SigningContext]>([])
    /// The most idle contexts kept: one per thread that signs at once is plenty.
    private static let keptContexts = 64

    /// The secret of ``seal(_:)``: SHA-256 of a label and the private key, so a seal proves its maker held the key.
    private let sealKey: [UInt8]?

    private init(owning pkey: OpaquePointer) {
        self.pkey = pkey
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        if EVP_PKEY_get_raw_private_key(pkey, &raw, &length) == 1, length == 32 {
            sealKey = try? SHA256.hash(Array("tender ledger seal v1".utf8) + raw)
        } else {
            sealKey = nil
        }
        for index in raw.indices { raw[index] = 0 }
    }

    deinit {
        contexts.withLock { idle in
            for ctx in idle { EVP_MD_CTX_free(ctx.pointer) }
        }
        EVP_PKEY_free(pkey)
    }

    /// A new random key (EVP_PKEY_keygen).
    public static func generate() throws(TenderError) -> Ed25519PrivateKey {
        guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw OpenSSLError.failure("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_keygen(ctx, &key) == 1, let key else {
            throw OpenSSLError.failure("EVP_PKEY_keygen")
        }
        return Ed25519PrivateKey(owning: key)
    }

    /// The key of a 32-byte seed (EVP_PKEY_new_raw_private_key), as RFC 8032 states keys.
    public convenience init(seed: [UInt8]) throws(TenderError) {
        guard seed.count == 32 else { throw .crypto("an Ed25519 seed has 32 bytes") }
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else {
            throw OpenSSLError.failure("EVP_PKEY_new_raw_private_key")
        }
        self.init(owning: key)
    }

    /// The key in a PKCS#8 PEM text (PEM_read_bio_PrivateKey); refuses other key types.
    public convenience init(pem: [UInt8]) throws(TenderError) {
        let bio = try MemoryBIO(reading: pem)
        // A password callback that refuses: an encrypted key file must fail, not prompt on the host's terminal.
        guard let key = PEM_read_bio_PrivateKey(bio.bio, nil, { _, _, _, _ in -1 }, nil) else {
            throw OpenSSLError.failure("PEM_read_bio_PrivateKey")
        }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(key)
            throw .crypto("the key is not an Ed25519 key")
        }
        self.init(owning: key)
    }

    /// The key as unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"). The caller wipes it after use.
    public func pkcs8PEM() throws(TenderError) -> [UInt8] {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PrivateKey(bio.bio, pkey, nil, nil, 0, nil, nil) == 1 else {
            throw OpenSSLError.failure("PEM_write_bio_PrivateKey")
        }
        return try bio.contents()
    }

    /// The 32-byte public key.
    public func publicKeyBytes() throws(TenderError) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(pkey, &raw, &length) == 1, length == 32 else {
            throw OpenSSLError.failure("EVP_PKEY_get_raw_public_key")
        }
        return raw
    }

    /// The 64-byte Ed25519 signature of `message` (EVP_DigestSign, one shot).
    public func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] {
        let ctx: OpaquePointer
        if let idle = contexts.withLock({ $0.popLast() }) { ctx = idle.pointer } else { ctx = try signingContext() }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = signature.count
        guard EVP_DigestSign(ctx, &signature, &length, message, message.count) == 1, length == 64 else {
            // A context that failed is not trusted again.
            EVP_MD_CTX_free(ctx)
            throw OpenSSLError.failure("EVP_DigestSign")
        }
        let kept = contexts.withLock { idle in
            guard idle.count < Self.keptContexts else { return false }
            idle.append(SigningContext(pointer: ctx))
            return true
        }
        if !kept { EVP_MD_CTX_free(ctx) }
        return signature
    }

    /// HMAC-SHA-256 of `message` under a secret derived from this key: the
    /// mark a record committed before its signature carries, so that only a
    /// holder of the key can have a stored record signed later.
    public func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] {
        guard let sealKey else { throw OpenSSLError.failure("EVP_PKEY_get_raw_private_key") }
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), sealKey, Int32(sealKey.count), message, message.count, &mac, &length) != nil, length == 32 else {
            throw OpenSSLError.failure("HMAC")
        }
        return mac
    }

    /// A new context bound to the key for signing (EVP_MD_CTX_new, EVP_DigestSignInit).
    private func signingContext() throws(TenderError) -> OpaquePointer {
        guard let ctx = EVP_MD_CTX_new() else { throw OpenSSLError.failure("EVP_MD_CTX_new") }
        guard EVP_DigestSignInit(ctx, nil, nil, nil, pkey) == 1 else {
            EVP_MD_CTX_free(ctx)
            throw OpenSSLError.failure("EVP_DigestSignInit")
        }
        return ctx
    }
}

/// An EVP_MD_CTX waiting in a key's pool; only one thread holds it at a time.
private struct SigningContext: @unchecked Sendable {
    let pointer: OpaquePointer
}
