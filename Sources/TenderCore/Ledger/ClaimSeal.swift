// SPDX-License-Identifier: Apache-2.0
/// The message a claim's seal signs: an Ed25519 signature, by the key signing the ledger, over a claim on an
/// idempotency key (its key, fingerprint, record body and token, and the signing key's id), made when the claim is
/// written. Settling a claim signs the record body it holds, so a claim's body is answered only when its seal checks:
/// a claim written into the store by anyone without the key is refused, never laundered into a signed record.
///
/// The message starts with ``domain`` (a NUL and a slash: never a JWS signing input, which is base64url and dots,
/// so a seal is never a record's signature, nor the reverse), then each field as its 8-byte big-endian length and
/// its UTF-8 bytes, so no two claims share a message. Pure; thread-safe.
public enum ClaimSeal {
    /// The message's first bytes, naming what it is and its version.
    public static let domain = "tender/claim-seal/1\u{0}"

    /// The bytes a claim's seal signs: `keyID` is the `kid` of the key sealing it (stored beside the seal).
    public static func message(keyID: String, idempotencyKey: String, fingerprint: String, body: String, token: String) -> [UInt8] {
        var bytes = Array(domain.utf8)
        for field in [keyID, idempotencyKey, fingerprint, body, token] {
            let utf8 = Array(field.utf8)
            let count = UInt64(utf8.count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
            bytes += utf8
        }
        return bytes
    }
}
