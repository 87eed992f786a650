// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// What a payment's checks read, made ahead (``AheadRead``) in the order they are used: the payment already made
/// under its idempotency key, the bill it pays (when it pays one), and each movement's account. Belongs to one
/// write transaction.
struct PrecheckReads {
    let payment: AheadRead
    let bill: AheadRead?
    /// One per movement, in the submission's order.
    let accounts: [AheadRead]

    /// The reads of `submission`'s checks on `db`.
    init(_ submission: PaymentSubmission, _ db: any StoreDatabase) throws(TenderError) {
        payment = try db.ahead(SQLiteStore.paymentSQL, [submission.idempotencyKey])
        bill = try submission.paidBill.map { (paid) throws(TenderError) in try db.ahead(SQLiteStore.billSQL, [paid.id]) }
        var accounts: [AheadRead] = []
        for movement in submission.movements { accounts.append(try db.ahead(SQLiteStore.accountSQL, [movement.accountID])) }
        self.accounts = accounts
    }
}
