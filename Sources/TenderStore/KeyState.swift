// SPDX-License-Identifier: Apache-2.0
/// The states of a signing key's row (`signing_keys.active`). A store on one machine has one enrolled key at a
/// time (rotations retire the one before); a shared store (tenderd on PostgreSQL) has one per machine serving the
/// person, each entered into the ledger by a key already signing (``KeyEnrollment``), so verify trusts it.
enum KeyState {
    /// Retired by a rotation: its private key is destroyed; it verifies what it signed before.
    static let retired: Int64 = 0
    /// Signs: the first key, one a rotation handed over to, or one a `key_added` entry enrolled.
    static let enrolled: Int64 = 1
    /// Registered by a machine that holds its private key, not enrolled yet: it signs nothing until a machine
    /// whose key signs enrolls it (`tenderd --enroll-key`), so a database writer alone cannot add a signer.
    static let pending: Int64 = 2
    /// Revoked (`tenderd --revoke-key`, and a `key_revoked` entry): it signs nothing more, and verify refuses what it
    /// signs after its revocation.
    static let revoked: Int64 = 3
}
