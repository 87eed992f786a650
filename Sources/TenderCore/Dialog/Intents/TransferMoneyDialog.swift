// SPDX-License-Identifier: Apache-2.0
/// transfer_money: fromAccount, toAccount, transactionAmount, transactionScheduledDate,
/// transactionNote; both accounts must hold the amount's currency (else the amount is unsupported
/// paymentsCurrencyUnsupported); the response carries the fee.
struct TransferMoneyDialog: IntentDialog {
    private struct Settled {
        var results: [ParameterResolution]
        var from: Account?
        var to: Account?
        var amount: Money?
        var scheduled: LocalDate?
    }

    private func settle(_ c: inout DialogContext) throws(TenderError) -> Settled {
        let from = try c.account("fromAccount", required: true)
        let to = try c.account("toAccount", required: true, excluding: from.value)
        var amount = c.transferAmount("transactionAmount")
        if let money = amount.value, [from.value, to.value].contains(where: { $0.map { $0.balance.currency != money.currency } ?? false }) {
            amount = c.askValue("transactionAmount", .unsupported(reason: UnsupportedReason.paymentsCurrencyUnsupported.rawValue))
        }
        let scheduled = c.optionalDate("transactionScheduledDate", future: true)
        return Settled(
            results: [from.json, to.json, amount.json, scheduled.json, c.optionalText("transactionNote").json], from: from.value, to: to.value,
            amount: amount.value, scheduled: scheduled.value)
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] { try settle(&c).results }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let s = try settle(&c)
        guard let from = s.from, let to = s.to, let amount = s.amount else {
            throw .wrongState("transfer_money is not resolved; resolve and answer first")
        }
        let fee = c.engine.transferFees[amount.currency.code] ?? Money.zero(amount.currency)
        var details: [(key: String, value: JSONValue)] = [("fromAccount", from.reference), ("toAccount", to.reference), ("currencyAmount", amount.json)]
        if let scheduled = s.scheduled { details.append(("transactionScheduledDate", scheduled.json)) }
        if let note = c.intent.text("transactionNote") { details.append(("transactionNote", .string(note))) }
        let today = c.engine.today()
        let debit = amount.minorUnits + fee.minorUnits
        let plan = PaymentPlan(
            intent: .transferMoney, status: (s.scheduled ?? today) > today ? .pending : .completed, amount: amount, account: from, fee: fee,
            details: details,
            movements: [
                BalanceMovement(accountID: from.id, currency: amount.currency, delta: -debit),
                BalanceMovement(accountID: to.id, currency: amount.currency, delta: amount.minorUnits),
            ], payee: nil, paidBill: nil, partyID: to.id)
        let code: ResponseCode = from.balance.minorUnits >= debit ? .ready : .failureInsufficientFunds
        return Confirmation(code, [("intent", plan.intentJSON), ("fee", fee.json)], plan: .payment(plan))
    }
}
