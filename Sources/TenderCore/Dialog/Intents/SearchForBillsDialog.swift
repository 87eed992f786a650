// SPDX-License-Identifier: Apache-2.0
/// search_for_bills: billPayee, paymentDateRange, billType, status, dueDateRange;
/// every parameter optional. Answers the matching bills' details, earliest due first.
struct SearchForBillsDialog: IntentDialog {
    private func settle(_ c: inout DialogContext) throws(TenderError) -> (results: [ParameterResolution], bills: [JSONValue]) {
        let payee = try c.billPayee("billPayee", required: false, offerUnpaid: false)
        let paid = c.optionalRange("paymentDateRange")
        let type = c.enumValue("billType", BillType.self)
        let status = c.enumValue("status", PaymentStatus.self)
        let due = c.optionalRange("dueDateRange")
        let payees = try c.directory.billPayees()
        let bills = try c.directory.bills().filter { bill in
            (payee.value.map { $0.id == bill.billPayeeID } ?? true) && (type.value.map { $0 == bill.type } ?? true)
                && (status.value.map { $0 == bill.status } ?? true) && (due.value.map { $0.contains(bill.dueDate) } ?? true)
                && (paid.value.map { range in bill.paymentDate.map(range.contains) ?? false } ?? true)
        }.sorted { $0.dueDate < $1.dueDate }
        let shown = bills.map { bill in bill.details(payee: payees.first { $0.id == bill.billPayeeID }) }
        return ([payee.json, paid.json, type.json, status.json, due.json], shown)
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] { try settle(&c).results }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let bills = try settle(&c).bills
        let result: JSONValue = .object([("bills", .array(bills))])
        return Confirmation(bills.isEmpty ? .failureBillNotFound : .ready, [("result", result)], plan: .report(result))
    }
}
