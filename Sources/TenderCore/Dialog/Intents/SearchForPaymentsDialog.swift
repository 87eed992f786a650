// SPDX-License-Identifier: Apache-2.0
/// search_for_payments: party, dateRange, status; every parameter optional.
/// Answers the matching records of the ledger (the payment history), newest first.
struct SearchForPaymentsDialog: IntentDialog {
    private func settle(_ c: inout DialogContext) throws(TenderError) -> (results: [ParameterResolution], payments: [JSONValue]) {
        let party = try c.person("party", required: false, suggestRecent: false, reach: false)
        let range = c.optionalRange("dateRange")
        let status = c.enumValue("status", PaymentStatus.self)
        var payments: [JSONValue] = []
        let changed = try c.engine.ledger.changedStatuses()
        for record in try c.engine.ledger.records().reversed() {
            var json = try JSONParser.parse(Array(record.json.utf8))
            // A payment shows the status it has now, not the one it was recorded with.
            if let now = changed[record.idempotencyKey], case let .object(members) = json {
                json = .object(members.map { $0.key == "status" ? ("status", .string(now.rawValue)) : $0 })
            }
            let partyID = (json["payee"] ?? json["payer"])?["id"]?.stringValue
            let day = json["createdAt"]?.stringValue.flatMap { try? LocalDate(text: String($0.prefix(10)), field: "createdAt") }
            guard party.value.map({ $0.contact.id == partyID }) ?? true, status.value.map({ $0.rawValue == json["status"]?.stringValue }) ?? true,
                range.value.map({ r in day.map(r.contains) ?? false }) ?? true
            else { continue }
            payments.append(json)
        }
        return ([party.json, range.json, status.json], payments)
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] { try settle(&c).results }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let payments = try settle(&c).payments
        let result: JSONValue = .object([("payments", .array(payments))])
        return Confirmation(payments.isEmpty ? .failurePaymentNotFound : .ready, [("result", result)], plan: .report(result))
    }
}
