// SPDX-License-Identifier: Apache-2.0
/// What may be said instead of a refused value: the accounts, people or bill payees the directory
/// holds, or a custom parameter's values or cases; for a missing account or bill payee, the ones there are. Each offer is an option (the id to choose, the
/// label to say) and the value answering with it supplies.
struct RefusalHelp {
    /// One thing the person may say instead.
    struct Offer {
        let option: ResolutionOption
        let value: JSONValue
    }

    /// The most offered for one refusal.
    static let maxOffers = 10

    /// The offers for `resolution` when it refuses a value that names something, else none; `results`
    /// are the resolve's other results (an account already used elsewhere is not offered again).
    static func offers(
        for resolution: ParameterResolution, of schema: IntentSchema, results: [ParameterResolution], engine: Engine, directory: any Directory
    ) throws(TenderError) -> [Offer] {
        let reason: UnsupportedReason?
        switch resolution.result {
        case let .unsupported(code): reason = UnsupportedReason(rawValue: code)
        case .needsValue:
            // A missing account or bill payee: the few there are, to choose from.
            switch schema.kind(of: resolution.parameter) {
            case .account?: reason = .noMatchingAccount
            case .billPayee?: reason = .noMatchingBillPayee
            default: return []
            }
        default: return []
        }
        if let custom = schema.custom?.parameter(resolution.parameter), custom.type != .account, custom.type != .person, custom.type != .billPayee {
            guard reason == nil || reason == .unknownValue, let definition = schema.custom else { return [] }
            let names: [String]
            if custom.type == .enum {
                names = custom.cases.map(\.name)
            } else {
                names = try CustomIntentDialog.choices(custom, of: definition, engine) ?? []
            }
            return names.prefix(maxOffers).map { name in
                Offer(option: ResolutionOption(id: name, label: name), value: custom.type == .integer ? .number(name) : .string(name))
            }
        }
        switch (schema.kind(of: resolution.parameter), reason) {
        case (.account?, .noMatchingAccount?), (.account?, .sameAccount?):
            let used = Set(results.compactMap { item -> String? in
                guard item.parameter != resolution.parameter, schema.kind(of: item.parameter) == .account, case let .success(value) = item.result else {
                    return nil
                }
                return value["id"]?.stringValue
            })
            return try directory.accounts().filter { !used.contains($0.id) }.prefix(maxOffers).map { account in
                Offer(option: ResolutionOption(id: account.id, label: account.spokenName), value: .object([("id", .string(account.id))]))
            }
        case (.person?, .noMatchingContact?):
            return try directory.contacts().prefix(maxOffers).map { contact in
                Offer(option: ResolutionOption(id: contact.id, label: contact.displayName), value: .object([("id", .string(contact.id))]))
            }
        case (.billPayee?, .noMatchingBillPayee?):
            return try directory.billPayees().prefix(maxOffers).map { payee in
                Offer(option: ResolutionOption(id: payee.id, label: payee.label), value: .object([("id", .string(payee.id))]))
            }
        default:
            return []
        }
    }
}
