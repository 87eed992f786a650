// SPDX-License-Identifier: Apache-2.0
/// A later change of a recorded payment's status: its own signed ledger
/// entry (type `payment_status`) naming the payment by sequence number and
/// idempotency key. The payment's record is never rewritten.
public enum PaymentStatusChange {
    /// The ledger entry type of a status change.
    public static let entryType = "payment_status"

    /// Whether a payment whose status is `current` may move to `next`: a
    /// pending payment (a request, or a payment scheduled for a later day)
    /// completes, is canceled or fails; every other status is final.
    public static func allows(from current: PaymentStatus, to next: PaymentStatus) -> Bool {
        current == .pending && [.completed, .canceled, .failed].contains(next)
    }

    /// The entry's payload for the payment recorded at `paymentSequence`.
    public static func payload(
        at position: LedgerPosition, paymentSequence: Int64, paymentID: String, intent: String, idempotencyKey: String,
        from previous: PaymentStatus, to status: PaymentStatus
    ) -> String {
        position.payload(
            type: entryType,
            body: JSONWriter.members([
                ("payment", .number(String(paymentSequence))), ("id", .string(paymentID)), ("intent", .string(intent)),
                ("idempotencyKey", .string(idempotencyKey)), ("previousStatus", .string(previous.rawValue)),
                ("status", .string(status.rawValue)),
            ]))
    }
}
