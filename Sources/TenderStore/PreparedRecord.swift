// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A payment's record built, hashed and signed by its submitter before its batch takes the write lock, for the
/// position it expected (``SQLiteStore``'s `expectedHead`). The batch inserts it whole, signed, when it finds that
/// head and that key; otherwise it is dropped (never stored nor returned) and the record built again in the batch.
struct PreparedRecord: Sendable {
    /// Where the record expects to go: the sequence after the expected head, its hash, the time it was built.
    let position: LedgerPosition
    /// The signed payload's JSON.
    let payload: String
    /// The payload's hash (base64url SHA-256), the next entry's `previousHash`.
    let hash: String
    /// The whole compact JWS.
    let jws: String
    /// The key that signed it.
    let keyID: String
}
