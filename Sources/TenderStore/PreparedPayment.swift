// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A quiet submitter's payment whose record was signed at the head the store expects, handed whole to an engine that
/// pays it in one call at its server (``StoreDatabase/payPrepared(_:)``: PostgreSQL's). The engine inserts the record only
/// when, under the person's lock, the head is `previous`, `signerKeyID` is enrolled with `signerPublicKey` recorded, the
/// idempotency key is unpaid and every movement's account holds its currency and funds; else it changes nothing and the
/// store pays the submission as it would have (``PreparedPaymentAnswer/unfit(_:)``). Values only, no ownership.
package struct PreparedPayment: Sendable {
    /// The head the record was signed after: its sequence and hash.
    package let previous: (sequence: Int64, hash: String)
    /// The key that signed the record, and the public key the store recorded for it (which the key store checked is its key).
    package let signerKeyID: String
    package let signerPublicKey: [UInt8]
    /// The row, as ``SQLiteStore``'s insert of a payment writes it (no seal: signed).
    package let jws: String
    package let hash: String
    package let idempotencyKey: String
    package let fingerprintDigest: [UInt8]
    package let accountID: String?
    package let payeeContactID: String?
    package let payeeHandleID: String?
    package let currency: String
    package let amountMinor: Int64
    /// The balances it moves, checked first and moved after, in order (``BalanceMovement``).
    package let movements: [BalanceMovement]
    /// The party its `paid_parties` row names, when it has one.
    package let paidParty: String?
    /// Whether the payment's claim leaves in its transaction.
    package let releasesClaim: Bool
    /// The audit entries kept in memory for the store's next write (the authentication that let this payment through),
    /// written with the record: at, user, event, intent, detail.
    package let audit: [(at: Int64, user: String, event: String, intent: String, detail: String)]
}

/// What an engine answered for a ``PreparedPayment``.
package enum PreparedPaymentAnswer: Sendable, Equatable {
    /// The engine has no such call (SQLite; or PostgreSQL's function is missing): nothing was sent or kept.
    case unsupported
    /// Committed: the record is the ledger's head.
    case paid
    /// Nothing was kept (the transaction committed nothing): `reason` names the check that failed (`arguments`: one NULL,
    /// arrays of unequal lengths or a lock not the person's; `key`, `head`, `paid before`, `checks`).
    case unfit(String)
}
