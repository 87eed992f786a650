// SPDX-License-Identifier: Apache-2.0
/// The port through which the host administers an engine's ledger and its
/// authentication records: reading and verifying the whole ledger,
/// checkpoints, the signing keys and the audit log. The C API's ledger calls
/// go through it, never through a store. Implemented by the embedded store.
/// Implementations must be thread-safe.
public protocol LedgerAdmin: Sendable {
    /// Every ledger entry (payments, status changes, key rotations), oldest first.
    func ledgerEntries() throws(TenderError) -> [LedgerEntry]
    /// Verifies every signature, sequence number and hash link from the root
    /// key (one of `trustedKeys` when given), and that `checkpoint` (a JWS)
    /// still holds; ``TenderError/ledgerTampered(_:)`` names the first bad record.
    func verify(checkpoint: String?, trustedKeys: [String: [UInt8]]?) throws(TenderError) -> LedgerVerifier.Report
    /// Signs a checkpoint of the ledger as it stands (a compact JWS).
    func checkpoint() throws(TenderError) -> String
    /// The active signing key, created on first use.
    func activeKey() throws(TenderError) -> StoredPublicKey
    /// Hands signing over to a new key in a signed entry; answers the new key.
    func rotateKey() throws(TenderError) -> StoredPublicKey
    /// Every audit entry, oldest first.
    func auditEntries() throws(TenderError) -> [AuditEntry]
}
