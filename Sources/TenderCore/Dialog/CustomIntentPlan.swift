// SPDX-License-Identifier: Apache-2.0
/// Everything confirm settled for a custom intent: each resolved parameter's value as the
/// host's handler gets it and in the person's words, and what the gate and the record need.
struct CustomIntentPlan: Sendable {
    let definition: CustomIntentDefinition
    /// The resolved parameters as the handler gets them, in the definition's order (absent optional ones left out).
    let values: [(key: String, value: JSONValue)]
    /// The same values in the person's words, for the templates.
    let words: [String: String]
    /// The amount of the intent's currencyAmount parameter, for the gate's rules and the record.
    let amount: Money?
    /// The account of its account parameter, kept in the record.
    let account: Account?
    /// Who or what it concerns (a person, bill payee or account id), for the new-payee rule.
    let partyID: String

    var movesMoney: Bool { definition.category == .moneyMovement }

    /// The resolved intent: `{"intent", ...values}`.
    var intentJSON: JSONValue { .object([("intent", .string(definition.name))] + values) }

    /// What the host's handler gets: `{"intent", "parameters", "idempotencyKey", "device"?}`.
    func request(idempotencyKey: String, device: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("intent", .string(definition.name)), ("parameters", .object(values)), ("idempotencyKey", .string(idempotencyKey)),
        ]
        if let device { members.append(("device", .string(device))) }
        return .object(members)
    }

    /// The question asked before money moves: the title of the shortcut type that fills the most of the
    /// parameters that have values (and none that has not), with a question mark: "Round up savings by $5?".
    var question: String {
        let filled = Set(values.map(\.key))
        let title = definition.shortcutTypes.filter { Set($0.parameters).isSubset(of: filled) }.max { $0.parameters.count < $1.parameters.count }?.title
        let sentence = title?.render(words) ?? "\(definition.title) \(amount.map(PaymentPlan.spoken) ?? "")"
        return sentence.trimmingCharacters() + "?"
    }

    /// The signed record of a money-moving intent the host handled: the parameters, the host's answer
    /// (`"response"`: code and values) and the account; identified by the parameters alone, so a retry
    /// with the same key and parameters finds it.
    func payment(response: CustomIntentResponse?, status: PaymentStatus) -> PaymentPlan? {
        guard let amount else { return nil }
        var details = values
        if let response { details.append(("response", response.recordJSON)) }
        return PaymentPlan(
            intent: definition.schema, status: status, amount: amount, account: account, fee: nil, details: details, movements: [], payee: nil,
            paidBill: nil, partyID: partyID, identity: values)
    }
}
