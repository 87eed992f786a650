// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import TenderCore

/// An Ed25519 public key (an OpenSSL EVP_PKEY), freed when released.
/// Immutable: verifying from several threads at once is safe.
public final class Ed25519PublicKey: @unchecked Sendable {
    private let pkey: OpaquePointer
    /// The 32 raw bytes (RFC 8032 encoding).
    public let bytes: [UInt8]

    /// The key of 32 raw bytes (EVP_PKEY_new_raw_public_key).
    public init(bytes: [UInt8]) throws(TenderError) {
        guard bytes.count == 32 else { throw .crypto("an Ed25519 public key has 32 bytes") }
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes, bytes.count) else {
            throw OpenSSLError.failure("EVP_PKEY_new_raw_public_key")
        }
        pkey = key
        self.bytes = bytes
    }

    /// The key in a SubjectPublicKeyInfo PEM text (PEM_read_bio_PUBKEY); refuses other key types.
    public convenience init(pem: [UInt8]) throws(TenderError) {
        let bio = try MemoryBIO(reading: pem)
        guard let key = PEM_read_bio_PUBKEY(bio.bio, nil, nil, nil) else { throw OpenSSLError.failure("PEM_read_bio_PUBKEY") }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else { throw .crypto("the key is not an Ed25519 key") }
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else {
            throw OpenSSLError.failure("EVP_PKEY_get_raw_public_key")
        }
        try self.init(bytes: raw)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Whether `signature` signs `message` (EVP_DigestVerify, one shot).
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        let valid = EVP_DigestVerifyInit(ctx, nil, nil, nil, pkey) == 1
            && EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return valid
    }

    /// The key as SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY"), as `openssl pkeyutl` reads it.
    public func pem() throws(TenderError) -> String {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PUBKEY(bio.bio, pkey) == 1 else { throw OpenSSLError.failure("PEM_write_bio_PUBKEY") }
        return String(decoding: try bio.contents(), as: UTF8.self)
    }
}
