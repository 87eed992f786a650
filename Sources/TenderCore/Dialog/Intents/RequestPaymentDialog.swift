// SPDX-License-Identifier: Apache-2.0
/// request_payment: payer, currencyAmount, note; records a pending request
/// to be paid into the default account in the amount's currency.
struct RequestPaymentDialog: IntentDialog {
    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] {
        [try c.person("payer", required: true, suggestRecent: false).json, c.currencyAmount("currencyAmount").json, c.optionalText("note").json]
    }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let payer = try c.person("payer", required: true, suggestRecent: false).settled()
        let amount = try c.currencyAmount("currencyAmount").settled()
        var details: [(key: String, value: JSONValue)] = [("payer", payer.json), ("currencyAmount", amount.json)]
        if let note = c.intent.text("note") { details.append(("note", .string(note))) }
        guard let account = try c.directory.payingAccount(for: amount.currency) else {
            return Confirmation(.failureNoBankAccount, [("intent", PaymentPlan.shown(.requestPayment, details))])
        }
        var plan = PaymentPlan(
            intent: .requestPayment, status: .pending, amount: amount, account: account, fee: nil, details: details, movements: [],
            payee: nil, paidBill: nil, partyID: payer.contact.id)
        // Nothing moves until the payer pays; then the money arrives in the account.
        plan.completionMovements = [BalanceMovement(accountID: account.id, currency: amount.currency, delta: amount.minorUnits)]
        return Confirmation(.ready, [("intent", plan.intentJSON), ("account", account.reference)], plan: .payment(plan))
    }
}
