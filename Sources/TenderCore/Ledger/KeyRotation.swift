// SPDX-License-Identifier: Apache-2.0
/// The ledger entry that hands signing over to a new key. It is signed by
/// the old key, so a verifier who trusts the first key follows every rotation.
public enum KeyRotation {
    /// The payload of a rotation to `newPublicKey` whose thumbprint is `newKeyID`.
    public static func payload(at position: LedgerPosition, newKeyID: String, newPublicKey: [UInt8]) -> String {
        position.payload(
            type: "key_rotation", body: JSONWriter.members([("newKid", .string(newKeyID)), ("newKey", JWK.ed25519(publicKey: newPublicKey))]))
    }
}
