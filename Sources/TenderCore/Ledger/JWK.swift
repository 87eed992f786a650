// SPDX-License-Identifier: Apache-2.0
/// JSON Web Keys for Ed25519 public keys (RFC 8037) and their RFC 7638 thumbprints.
public enum JWK {
    /// `{"kty":"OKP","crv":"Ed25519","x":...}` with `kid` when given.
    public static func ed25519(publicKey: [UInt8], keyID: String? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("kty", .string("OKP")), ("crv", .string("Ed25519")), ("x", .string(Base64URL.encode(publicKey))),
        ]
        if let keyID { members.append(("kid", .string(keyID))) }
        return .object(members)
    }

    /// The RFC 7638 thumbprint of a key given by its required members: their
    /// canonical JSON (sorted names, no spaces), SHA-256, base64url.
    public static func thumbprint(requiredMembers: [String: String], crypto: any LedgerCrypto) throws(TenderError) -> String {
        let canonical = JSONValue.object(requiredMembers.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        return Base64URL.encode(try crypto.sha256(Array(JSONWriter.string(canonical).utf8)))
    }

    /// The thumbprint of a raw Ed25519 public key.
    public static func ed25519Thumbprint(publicKey: [UInt8], crypto: any LedgerCrypto) throws(TenderError) -> String {
        try thumbprint(requiredMembers: ["crv": "Ed25519", "kty": "OKP", "x": Base64URL.encode(publicKey)], crypto: crypto)
    }
}
