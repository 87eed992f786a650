// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension PaymentSubmission {
    /// A submission as the core makes one: its payload (from `payload`) also
    /// carries the signed copy of the columns the store keeps beside it (the
    /// `"ledger"` member), which verify checks the columns and balances against.
    static func signed(
        idempotencyKey: String, fingerprint: String, amount: Money, movements: [BalanceMovement], payee: RecentPayee? = nil,
        paidBill: PaidBill? = nil, completionMovements: [BalanceMovement] = [], paidParty: String? = nil,
        payload: @escaping @Sendable (LedgerPosition) -> String
    ) -> PaymentSubmission {
        let columns = ledgerColumns(
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
}
