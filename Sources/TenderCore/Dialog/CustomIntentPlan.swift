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
    /// Who is paid: the id of its first person or bill payee parameter's value (else of its account,
    /// else empty), for the new-payee rule, the reuse window and the record.
    let partyID: String
    /// The party paid in the person's words (a person's or bill payee's name), nil without one.
    let payeeWords: String?

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

    /// The question asked before money moves, in English and in Tender's words whatever the definition says:
    /// the amount, the party paid and the account ("Move $50 to John Appleseed from Checking?", the sentence
    /// tables' `confirmMove`).
    var question: String {
        EnglishSentences().confirmMove(amount: amount.map(PaymentPlan.spoken) ?? "", to: payeeWords, from: account?.spokenName)
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
