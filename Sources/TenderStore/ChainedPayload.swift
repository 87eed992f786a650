// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A ledger entry's payload placed after a head: its position (the next sequence, the head's hash, the time now),
/// the payload's JSON that `make` writes for that position, its bytes and its hash, the next entry's `previousHash`.
/// Every entry the store chains, signed ahead or in its batch, is built here, so the two always agree.
struct ChainedPayload {
    let position: LedgerPosition
    let payload: String
    let bytes: [UInt8]
    let hash: String

    /// Throws what hashing throws (``LedgerEntry/hash(ofPayload:crypto:)``).
    init(
        after head: (sequence: Int64, hash: String), at milliseconds: Int64, crypto: any LedgerCrypto,
        _ make: (LedgerPosition) -> String
    ) throws(TenderError) {
        position = LedgerPosition(sequence: head.sequence + 1, previousHash: head.hash, createdAtMilliseconds: milliseconds)
        payload = make(position)
        bytes = Array(payload.utf8)
        hash = try LedgerEntry.hash(ofPayload: bytes, crypto: crypto)
    }
}
