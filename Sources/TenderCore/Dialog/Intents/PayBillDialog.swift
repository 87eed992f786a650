// SPDX-License-Identifier: Apache-2.0
/// pay_bill: billPayee, fromAccount, transactionAmount, transactionScheduledDate,
/// dueDate, transactionNote, billType. Pays the payee's earliest unpaid bill
/// (of the bill type and due date, when stated) and marks it completed, or
/// pending when scheduled for a later day (the funds are taken at handle);
/// a payment of less than the amount due leaves it unpaid.
struct PayBillDialog: IntentDialog {
    private struct Settled {
        var results: [ParameterResolution]
        var payee: BillPayee?
        var bill: Bill?
        var account: Account?
        var amount: Money?
        var scheduled: LocalDate?
    }

    private func settle(_ c: inout DialogContext) throws(TenderError) -> Settled {
        let billType = c.enumValue("billType", BillType.self)
        let payee = try c.billPayee("billPayee", required: true, offerUnpaid: true)
        let dueDate = c.optionalDate("dueDate", future: false)
        let retried = c.intent.idempotencyKey == nil ? nil : try Self.billRecorded(under: c.idempotencyKey, c.engine.ledger)
        let bill = try payee.value.flatMap { (p) throws(TenderError) in
            try Self.bill(of: p, type: billType.value, due: dueDate.value, retried: retried, c.directory)
        }
        let currency = bill?.amountDue.currency ?? c.intent.transactionAmount("transactionAmount")?.amount?.currency
        let fallback = try currency.flatMap { (cur) throws(TenderError) in try c.directory.payingAccount(for: cur) }
        var account = try c.account("fromAccount", required: true, fallback: fallback)
        if account.value == nil, c.intent.account("fromAccount") == nil, try c.directory.accounts().isEmpty {
            // No account at all to pay from: confirm answers failureCredentialsUnverified (the seeds' "no account").
            account = c.askValue("fromAccount", .unsupported(reason: UnsupportedReason.noAccount.rawValue))
        }
        let amount = c.billAmount("transactionAmount", bill: bill)
        if let from = account.value, let money = amount.value, from.balance.currency != money.currency {
            account = c.askValue("fromAccount", .unsupported(reason: UnsupportedReason.paymentsCurrencyUnsupported.rawValue))
        }
        let scheduled = c.optionalDate("transactionScheduledDate", future: true)
        let results = [
            payee.json, account.json, amount.json, scheduled.json, dueDate.json, c.optionalText("transactionNote").json, billType.json,
        ]
        return Settled(results: results, payee: payee.value, bill: bill, account: account.value, amount: amount.value, scheduled: scheduled.value)
    }

    /// The bill to pay: the one `retried` names (a retry of a payment already
    /// recorded, whatever its status now), else the earliest-due unpaid bill of
    /// `payee`, of `type` and due on `due` when given.
    static func bill(of payee: BillPayee, type: BillType?, due: LocalDate?, retried: String?, _ directory: any Directory) throws(TenderError)
        -> Bill?
    {
        let bills = try directory.bills().filter { $0.billPayeeID == payee.id }
        if let retried, let bill = bills.first(where: { $0.id == retried }) { return bill }
        return bills.filter { $0.status == .unpaid && (type == nil || $0.type == type) && (due == nil || $0.dueDate == due) }
            .min { $0.dueDate < $1.dueDate }
    }

    /// The id of the bill a payment recorded under `key` paid, if any.
    static func billRecorded(under key: String, _ ledger: any PaymentLedger) throws(TenderError) -> String? {
        guard let record = try ledger.payment(idempotencyKey: key)?.record else { return nil }
        let json = try JSONParser.parse(record.json)
        // Records before 0.1.0's rename call the bill billDetails.
        return (json["billDetailsWhenPaid"] ?? json["billDetails"])?["id"]?.stringValue
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] { try settle(&c).results }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let s = try settle(&c)
        guard let payee = s.payee, let amount = s.amount else { throw .wrongState("pay_bill is not resolved; resolve and answer first") }
        guard let account = s.account else {
            // The person has no account to pay from: the seeds' "not signed in or no account".
            return Confirmation(.failureCredentialsUnverified, [("intent", PaymentPlan.shown(.payBill, [("billPayee", payee.json)])), ("reason", .string("noAccount"))])
        }
        let today = c.engine.today()
        var details: [(key: String, value: JSONValue)] = [("billPayee", payee.json), ("currencyAmount", amount.json)]
        // The bill as it was when paid (before this payment changed its status); the directory has it as it is now.
        if let bill = s.bill { details.append(("billDetailsWhenPaid", bill.details(payee: payee))) }
        if let scheduled = s.scheduled { details.append(("transactionScheduledDate", scheduled.json)) }
        if let note = c.intent.text("transactionNote") { details.append(("transactionNote", .string(note))) }
        let payday = s.scheduled ?? today
        var plan = PaymentPlan(
            intent: .payBill, status: payday > today ? .pending : .completed, amount: amount, account: account, fee: nil, details: details,
            movements: [BalanceMovement(accountID: account.id, currency: amount.currency, delta: -amount.minorUnits)], payee: nil,
            paidBill: s.bill.map { bill in
                // Less than the amount due (the minimum, say) leaves the bill unpaid, for the rest to be paid later.
                let settles = amount.minorUnits >= bill.amountDue.minorUnits
                return PaidBill(id: bill.id, status: !settles ? .unpaid : payday > today ? .pending : .completed, on: payday)
            }, partyID: payee.id)
        // The bill's details change once it is paid; the payment is who, which bill, how much, when.
        plan.identity = [
            ("billPayee", .string(payee.id)), ("bill", s.bill.map { .string($0.id) } ?? .null), ("currencyAmount", amount.json),
            ("transactionScheduledDate", s.scheduled?.json ?? .null), ("transactionNote", c.intent.text("transactionNote").map(JSONValue.string) ?? .null),
        ]
        let code: ResponseCode = account.balance.minorUnits >= amount.minorUnits ? .ready : .failureInsufficientFunds
        var members: [(key: String, value: JSONValue)] = [("intent", plan.intentJSON)]
        if let bill = s.bill { members.append(("billDetails", bill.details(payee: payee))) }
        return Confirmation(code, members, plan: .payment(plan))
    }
}
