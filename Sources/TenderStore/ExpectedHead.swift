// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The ledger head a store's last batch left (or its open read), and the keys that may sign after it: where the
/// next payment's record is expected to go when nothing else writes first (``PreparedRecord``). A hint only: a
/// batch checks it against the head and the signing key it reads. Holds key ids, not keys: a key rotated away is
/// not kept in memory for it.
struct ExpectedHead: Sendable {
    let sequence: Int64
    let hash: String
    /// The enrolled keys, in the store's order; the first whose private key is here signs (as ``SQLiteStore/activeSigner(_:)`` picks).
    let keyIDs: [String]
    /// The public keys the store records for ``keyIDs`` (when read with them), so the first signer loaded need not derive
    /// its public key from the private key (``KeyStore/signer(keyID:recordedPublicKey:)``, which checks it).
    var publicKeys: [String: [UInt8]] = [:]
}
