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
    /// An HMAC context keyed with ``sealKey``, made at the first seal and copied for each (EVP_MAC_CTX_dup; only read,
    /// so seals on several threads share it): a seal then fetches no algorithm and hashes no key pads.
    private let sealContext = PthreadLocked<OpaquePointer?>(nil)
    /// Whether the public key was given with the seed (``init(seed:publicKey:)``) and not yet found to be the seed's:
    /// checked once, before the first signature or seal, so a seed that is not the recorded key's (a key file
    /// corrupted or replaced under the key's name) signs and seals nothing instead of records verify refuses.
    private let pairUnchecked: Atomic<Bool>

    private init(owning pkey: OpaquePointer, pairUnchecked: Bool = false) {
        self.pkey = pkey
        self.pairUnchecked = Atomic(pairUnchecked)
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
        sealContext.withLock { if let ctx = $0 { EVP_MAC_CTX_free(ctx) } }
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

    /// The key of a 32-byte seed and its 32-byte public key, taken as given instead of derived from the seed (a
    /// derivation costs about as much as a signature: tens of microseconds, at every engine open of a host serving many
    /// homes). OpenSSL does not check the pair: the caller must know `publicKey` is the seed's (``KeyDirectory``
    /// takes the public key the store records for a key only when its thumbprint is that key's id, which names the file
    /// holding the seed). A public key that is not the seed's is found at the first signature or seal,
    /// which then throws ``TenderError/keyFile(_:)`` (the seed derived once then, not at the open).
    public convenience init(seed: [UInt8], publicKey: [UInt8]) throws(TenderError) {
        guard seed.count == 32, publicKey.count == 32 else { throw .crypto("an Ed25519 seed and public key have 32 bytes each") }
        guard let key = tender_ed25519_key_from_pair(seed, publicKey) else { throw OpenSSLError.failure("EVP_PKEY_fromdata") }
        self.init(owning: key, pairUnchecked: true)
    }

    /// ``init(pem:)`` with the key's public key given (``init(seed:publicKey:)``, under the same condition on the caller):
    /// a key file as Tender writes it is read from its seed and `publicKey`; any other text as ``init(pem:)`` reads it,
    /// its public key derived.
    public convenience init(pem: [UInt8], publicKey: [UInt8]) throws(TenderError) {
        if publicKey.count == 32, var seed = Self.seed(ofTenderPEM: pem) {
            defer { for index in seed.indices { seed[index] = 0 } }
            try self.init(seed: seed, publicKey: publicKey)
            return
        }
        try self.init(pem: pem)
    }

    /// The key in a PKCS#8 PEM text (PEM_read_bio_PrivateKey); refuses other key types.
    /// A key file as Tender writes it (``pkcs8PEM()``: one unencrypted RFC 8410 `PrivateKeyInfo`, 48 bytes) is read
    /// from its seed directly, which costs a few microseconds where OpenSSL's decoders cost hundreds: opening
    /// an engine signs with its home's key, and a host serving many homes opens engines all the time.
    public convenience init(pem: [UInt8]) throws(TenderError) {
        if var seed = Self.seed(ofTenderPEM: pem) {
            defer { for index in seed.indices { seed[index] = 0 } }
            try self.init(seed: seed)
            return
        }
        try self.init(openSSLPEM: pem)
    }

    /// The key in a PKCS#8 PEM text as OpenSSL's PEM reader reads it (any text ``init(pem:)`` does not read itself).
    convenience init(openSSLPEM pem: [UInt8]) throws(TenderError) {
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

    /// The DER of an unencrypted Ed25519 `PrivateKeyInfo` (RFC 8410, version 0, no attributes, no public key)
    /// up to its 32-byte seed.
    private static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
    private static let pemHeader = Array("-----BEGIN PRIVATE KEY-----\n".utf8)
    private static let pemFooter = Array("-----END PRIVATE KEY-----".utf8)

    /// The seed of a PEM text exactly as ``pkcs8PEM()`` writes it (the header line, one line of 64 base64
    /// characters holding ``pkcs8Prefix`` and the seed, the footer line, an optional final newline), or nil
    /// for any other text, which OpenSSL then reads. The caller wipes the seed after use.
    static func seed(ofTenderPEM pem: [UInt8]) -> [UInt8]? {
        let body = pemHeader.count
        let footer = body + 65
        guard pem.count == footer + pemFooter.count || (pem.count == footer + pemFooter.count + 1 && pem.last == 0x0A),
            pem.starts(with: pemHeader), pem[body + 64] == 0x0A, Array(pem[footer..<(footer + pemFooter.count)]) == pemFooter
        else { return nil }
        var der = [UInt8](repeating: 0, count: 48)
        defer { for index in der.indices { der[index] = 0 } }
        for group in 0..<16 {
            var bits: UInt32 = 0
            for offset in 0..<4 {
                guard let value = base64Value(pem[body + group * 4 + offset]) else { return nil }
                bits = bits << 6 | UInt32(value)
            }
            der[group * 3] = UInt8(truncatingIfNeeded: bits >> 16)
            der[group * 3 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            der[group * 3 + 2] = UInt8(truncatingIfNeeded: bits)
        }
        guard der.starts(with: pkcs8Prefix) else { return nil }
        return Array(der[pkcs8Prefix.count...])
    }

    /// The value of a character of the standard base64 alphabet (RFC 4648 section 4), nil for any other byte.
    private static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
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
        if pairUnchecked.load(ordering: .acquiring) { try checkPair() }
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
        if pairUnchecked.load(ordering: .acquiring) { try checkPair() }
        guard let sealKey else { throw OpenSSLError.failure("EVP_PKEY_get_raw_private_key") }
        let keyed = sealContext.withLock { (ctx: inout OpaquePointer?) -> OpaquePointer? in
            if ctx == nil { ctx = tender_hmac_sha256_keyed(sealKey, sealKey.count) }
            return ctx
        }
        guard let keyed else { throw OpenSSLError.failure("EVP_MAC_init") }
        var mac = [UInt8](repeating: 0, count: 32)
        guard tender_hmac_sha256_with(keyed, message, message.count, &mac) == 1 else { throw OpenSSLError.failure("HMAC") }
        return mac
    }

    /// Derives the public key from the seed, once (a key given its public key, ``init(seed:publicKey:)``): throws
    /// ``TenderError/keyFile(_:)`` when it is not the one given, every time, so no signature is made that its
    /// recorded key would not verify (an acknowledged payment must verify). Threads racing here derive it each.
    private func checkPair() throws(TenderError) {
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        defer { for index in raw.indices { raw[index] = 0 } }
        guard EVP_PKEY_get_raw_private_key(pkey, &raw, &length) == 1, length == 32 else {
            throw OpenSSLError.failure("EVP_PKEY_get_raw_private_key")
        }
        guard try Ed25519PrivateKey(seed: raw).publicKeyBytes() == publicKeyBytes() else {
            throw .keyFile("the key's private key is not the one its recorded public key names (its file holds another key): it signs nothing")
        }
        pairUnchecked.store(false, ordering: .releasing)
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
