/// Everything confirm settled: who, how much, from which account.
struct ConfirmedPayment: Equatable, Sendable {
    let contact: Contact
    let handle: Handle
    let amount: Money
    let note: String?
    let account: Account

    /// The resolved payee, as resolution values and records show it.
    static func payeeJSON(_ contact: Contact, _ handle: Handle) -> JSONValue {
        .object([("id", .string(contact.id)), ("displayName", .string(contact.displayName)), ("handle", handle.json)])
    }

    /// The resolved intent as confirm shows it.
    var intentJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("intent", .string(SendPaymentIntent.name)), ("payee", Self.payeeJSON(contact, handle)), ("currencyAmount", amount.json),
        ]
        if let note { members.append(("note", .string(note))) }
        return .object(members)
    }

    /// The canonical parameters: equal exactly when two submissions pay the same thing.
    var fingerprint: String {
        JSONWriter.string(.object([
            ("intent", .string(SendPaymentIntent.name)), ("payee", .string(contact.id)), ("handle", .string(handle.id)),
            ("currencyAmount", amount.json), ("note", note.map(JSONValue.string) ?? .null), ("account", .string(account.id)),
        ]))
    }

    /// The payment record's JSON, once the ledger says where it goes.
    func payload(id: String, idempotencyKey: String, at position: LedgerPosition) -> String {
        var members = position.members(type: "payment")
        members += [
            ("id", .string(id)), ("intent", .string(SendPaymentIntent.name)), ("status", .string("completed")),
            ("payee", Self.payeeJSON(contact, handle)), ("currencyAmount", amount.json), ("account", account.reference),
        ]
        if let note { members.append(("note", .string(note))) }
        members.append(("idempotencyKey", .string(idempotencyKey)))
        members.append(("createdAt", .string(position.createdAt)))
        return JSONWriter.string(.object(members))
    }
}
