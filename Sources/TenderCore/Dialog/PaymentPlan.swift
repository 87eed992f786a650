// SPDX-License-Identifier: Apache-2.0
/// Everything confirm settled for an intent that moves money or asks for it:
/// the record's members, the balances to move, the bill it pays.
struct PaymentPlan: Sendable {
    let intent: IntentSchema
    let status: PaymentStatus
    let amount: Money
    /// The account paid from (or, for a request, paid into).
    let account: Account?
    let fee: Money?
    /// The intent's resolved parameters as the record and confirm show them.
    let details: [(key: String, value: JSONValue)]
    let movements: [BalanceMovement]
    let payee: RecentPayee?
    let paidBill: PaidBill?
    /// Who or what is paid, for the authentication rules: a person's handle as ``Handle/paymentAddress``
    /// (send payment), else the bill payee, account or contact id.
    let partyID: String
    /// The party the ledger remembers as paid once this payment is recorded (the `newPayee` rule's
    /// "paid before"): the handle's ``Handle/paymentAddress`` for send payment, nil for the others.
    var paidParty: String? = nil
    /// Balances moved when this pending payment later completes (a request's money arriving).
    var completionMovements: [BalanceMovement] = []
    /// What identifies the payment when the details hold things that change once it is made (a bill's status).
    var identity: [(key: String, value: JSONValue)]? = nil

    /// The resolved intent: `{"intent", ...details, "account", "fee"}`.
    var intentJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("intent", .string(intent.name))] + details
        if let account { members.append(("account", account.reference)) }
        if let fee { members.append(("fee", fee.json)) }
        return .object(members)
    }

    /// The canonical parameters: equal exactly when two submissions pay the same thing. The record keeps
    /// their SHA-256 and ``PaymentFingerprint/canonicalText(ofRecord:)`` rebuilds this text from it: the two must agree.
    var fingerprint: String {
        guard let identity else { return JSONWriter.string(intentJSON) }
        return JSONWriter.string(.object([("intent", .string(intent.name))] + identity + [("account", .string(account?.id ?? ""))]))
    }

    /// SiriKit's payment method: the account's type and nickname.
    private var paymentMethod: JSONValue? {
        guard let account else { return nil }
        let type = account.type == .saving ? "savings" : account.type.rawValue
        return .object([("type", .string(type)), ("name", .string(account.spokenName))])
    }

    /// The record's members that do not depend on where the ledger puts it,
    /// rendered ahead of the ledger's lock; ``LedgerPosition/payload(type:body:)`` completes them.
    func payloadBody(id: String, idempotencyKey: String) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [(RecordFormat.member, .number(String(RecordFormat.current))), ("id", .string(id)), ("intent", .string(intent.name)), ("status", .string(status.rawValue))]
        members += details
        if let account { members.append(("account", account.reference)) }
        if let paymentMethod { members.append(("paymentMethod", paymentMethod)) }
        if let fee { members.append(("fee", fee.json)) }
        members.append(("idempotencyKey", .string(idempotencyKey)))
        return JSONWriter.members(members)
    }
}

extension PaymentPlan {
    /// An intent as confirm shows it before a plan exists.
    static func shown(_ intent: IntentSchema, _ details: [(key: String, value: JSONValue)]) -> JSONValue {
        .object([("intent", .string(intent.name))] + details)
    }
}
