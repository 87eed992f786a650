// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension PaymentSubmission {
    /// A submission whose record is written in format 1, as Tender wrote every record before format 2
    /// (the test-only writer of the records verify keeps accepting): its payload (from `payload`) also
    /// carries the signed copy of the columns the store keeps beside it (the `"ledger"` member, with the
    /// key, the fingerprint's text, the account and the payee), which verify checks the columns and balances against.
    static func signed(
        idempotencyKey: String, fingerprint: String, amount: Money, movements: [BalanceMovement], payee: RecentPayee? = nil,
        paidBill: PaidBill? = nil, completionMovements: [BalanceMovement] = [], paidParty: String? = nil,
        payload: @escaping @Sendable (LedgerPosition) -> String
    ) -> PaymentSubmission {
        let columns = formatOneColumns(
            idempotencyKey: idempotencyKey, fingerprint: fingerprint, amount: amount, movements: movements, payee: payee,
            effects: PaymentEffects(movements: movements, onCompletion: completionMovements, bill: paidBill))
        return PaymentSubmission(
            idempotencyKey: idempotencyKey, fingerprint: fingerprint, amount: amount, movements: movements, payee: payee, paidBill: paidBill,
            completionMovements: completionMovements, paidParty: paidParty
        ) { position in
            guard let members = (try? JSONParser.parse(payload(position)))?.objectMembers else { return payload(position) }
            return JSONWriter.string(.object(members + [("ledger", columns)]))
        }
    }

    /// A format-1 record's `"ledger"` member, as the code at bf08003 wrote it.
    static func formatOneColumns(
        idempotencyKey: String, fingerprint: String, amount: Money, movements: [BalanceMovement], payee: RecentPayee?, effects: PaymentEffects
    ) -> JSONValue {
        .object([
            ("idempotencyKey", .string(idempotencyKey)), ("fingerprint", .string(fingerprint)),
            ("account", movements.first.map { .string($0.accountID) } ?? .null),
            ("payeeContact", payee.map { .string($0.contactID) } ?? .null), ("payeeHandle", payee.map { .string($0.handleID) } ?? .null),
            ("currency", .string(amount.currency.code)), ("amountMinor", .number(String(amount.minorUnits))), ("effects", effects.json),
        ])
    }
}
