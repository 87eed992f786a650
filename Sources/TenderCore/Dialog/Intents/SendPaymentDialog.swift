// SPDX-License-Identifier: Apache-2.0
/// send_payment: payee, currencyAmount, note; pays from the default account in the amount's currency.
struct SendPaymentDialog: IntentDialog {
    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] {
        [try c.person("payee", required: true, suggestRecent: true).json, c.currencyAmount("currencyAmount").json, c.optionalText("note").json]
    }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let payee = try c.person("payee", required: true, suggestRecent: true).settled()
        guard let handle = payee.handle else { throw .internal("a payee resolved without a handle") }
        let amount = try c.currencyAmount("currencyAmount").settled()
        var details: [(key: String, value: JSONValue)] = [("payee", payee.json), ("currencyAmount", amount.json)]
        if let note = c.intent.text("note") { details.append(("note", .string(note))) }
        guard let account = try c.directory.payingAccount(for: amount.currency) else {
            return Confirmation(.failureNoBankAccount, [("intent", PaymentPlan.shown(.sendPayment, details))])
        }
        // The rules key on the handle paid (its kind and value), not on the contact: a directory edit
        // that re-points a paid contact's handle makes a new payee.
        var plan = PaymentPlan(
            intent: .sendPayment, status: .completed, amount: amount, account: account, fee: nil, details: details,
            movements: [BalanceMovement(accountID: account.id, currency: amount.currency, delta: -amount.minorUnits)],
            payee: RecentPayee(contactID: payee.contact.id, handleID: handle.id), paidBill: nil, partyID: handle.paymentAddress)
        plan.paidParty = handle.paymentAddress
        let code: ResponseCode = account.balance.minorUnits >= amount.minorUnits ? .ready : .failureInsufficientFunds
        return Confirmation(code, [("intent", plan.intentJSON), ("account", account.reference)], plan: .payment(plan))
    }
}
