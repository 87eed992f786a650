// SPDX-License-Identifier: Apache-2.0
/// The ledger entries that let several keys sign one ledger at once (one per machine of a deployment on a shared
/// store, docs/scale.md). `key_added` enrolls a new key beside the ones signing; `key_revoked` takes a key out, with
/// every key it enrolled. Both are signed by a key already signing, so a verifier who trusts the first key follows
/// every enrollment, as it follows a ``KeyRotation``: a key enters the ledger only through a key already in it, and
/// what a key enrolled goes with it when it is revoked. Pure; thread-safe.
public enum KeyEnrollment {
    /// The entry type enrolling a key.
    public static let addedType = "key_added"
    /// The entry type revoking a key.
    public static let revokedType = "key_revoked"

    /// The payload enrolling `newPublicKey`, whose thumbprint is `newKeyID`.
    public static func added(at position: LedgerPosition, newKeyID: String, newPublicKey: [UInt8]) -> String {
        position.payload(
            type: addedType, body: JSONWriter.members([("newKid", .string(newKeyID)), ("newKey", JWK.ed25519(publicKey: newPublicKey))]))
    }

    /// The payload revoking the key `keyID` (and every key it enrolled).
    public static func revoked(at position: LedgerPosition, keyID: String) -> String {
        position.payload(type: revokedType, body: JSONWriter.members([("revokedKid", .string(keyID))]))
    }
}
