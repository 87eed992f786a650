// SPDX-License-Identifier: Apache-2.0
extension DialogContext {
    /// A resolved person and the handle a payment reaches them at.
    struct Reached: Equatable {
        let contact: Contact
        /// Nil when only the person matters (a search's party).
        let handle: Handle?

        /// The resolved person, as resolution values and records show them.
        var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [("id", .string(contact.id)), ("displayName", .string(contact.displayName))]
            if let handle { members.append(("handle", handle.json)) }
            return .object(members)
        }
    }

    /// Resolves a payee or payer in two steps, SiriKit's way: the person
    /// (every hearing of the name, the host's matches and the contact-name
    /// vocabulary are all considered; several → disambiguation; only a
    /// similar-sounding name → confirmationRequired), then the handle
    /// (several → disambiguation by label). Without a name, `suggestRecent`
    /// offers the most recent payee for confirmation; otherwise needsValue
    /// (or notRequired when not `required`). Without `reach`, the person is
    /// enough and no handle is resolved.
    mutating func person(_ parameter: String, required: Bool, suggestRecent: Bool, reach: Bool = true) throws(TenderError)
        -> Resolution<Reached>
    {
        let query = intent.person(parameter)
        let contact: Contact
        if let id = state.chosen[parameter] ?? query?.contactID {
            guard let found = try directory.contact(id: id) else {
                return askValue(parameter, .unsupported(reason: UnsupportedReason.noMatchingContact.rawValue))
            }
            contact = found
        } else if let query, let name = query.name {
            let everyone = try directory.contacts()
            let hearings = [name] + query.alternatives
            var found = query.matches.compactMap { id in everyone.first { $0.id == id } }
            let vocabulary = try directory.vocabulary(.contactName).items
            for hearing in hearings {
                found += VocabularyMatcher.matches(hearing, in: vocabulary).filter(\.exact).compactMap { m in everyone.first { $0.id == m.id } }
                found += NameMatcher.matches(hearing, in: everyone)
            }
            found = Self.unique(found)
            if found.isEmpty {
                let people = everyone.map { VocabularyItem(id: $0.id, name: $0.displayName) }
                let similar = Self.unique(hearings.flatMap { VocabularyMatcher.matches($0, in: people + vocabulary) }.compactMap { m in
                    everyone.first { $0.id == m.id }
                })
                if similar.count == 1, !state.declined.contains(parameter) {
                    // "Did you mean Jon Bailey?"
                    return askConfirm(parameter, key: parameter, choices: [parameter: similar[0].id], shown: Self.personJSON(similar[0]))
                }
                found = state.declined.contains(parameter) ? [] : similar
            }
            switch found.count {
            case 0: return askValue(parameter, .unsupported(reason: UnsupportedReason.noMatchingContact.rawValue))
            case 1: contact = found[0]
            default:
                return askChoice(parameter, key: parameter, prompt: "person", found.map { ResolutionOption(id: $0.id, label: $0.displayName) })
            }
        } else {
            if suggestRecent, !state.declined.contains(parameter), let recent = try engine.ledger.mostRecentPayee(),
                let person = try directory.contact(id: recent.contactID), let handle = person.handles.first(where: { $0.id == recent.handleID })
            {
                let choices = [parameter: recent.contactID, parameter + ".handle": recent.handleID]
                return askConfirm(parameter, key: parameter, choices: choices, shown: Reached(contact: person, handle: handle).json)
            }
            return required ? askValue(parameter, .needsValue) : Resolution(parameter, .notRequired)
        }
        guard reach else {
            let reached = Reached(contact: contact, handle: nil)
            return Resolution(parameter, .success(reached.json), reached)
        }
        return handle(parameter, of: contact, wanted: state.chosen[parameter + ".handle"] ?? query?.handle)
    }

    private mutating func handle(_ parameter: String, of contact: Contact, wanted: String?) -> Resolution<Reached> {
        var candidates = contact.handles
        if let wanted {
            let named = contact.handles.filter { $0.id == wanted || $0.label.lowercased() == wanted.lowercased() }
            if !named.isEmpty { candidates = named }
        }
        switch candidates.count {
        case 0: return askValue(parameter, .unsupported(reason: UnsupportedReason.noValidHandle.rawValue))
        case 1:
            let reached = Reached(contact: contact, handle: candidates[0])
            return Resolution(parameter, .success(reached.json), reached)
        default:
            return askChoice(parameter, key: parameter + ".handle", prompt: "handle", candidates.map { ResolutionOption(id: $0.id, label: $0.label) })
        }
    }

    static func personJSON(_ contact: Contact) -> JSONValue { .object([("id", .string(contact.id)), ("displayName", .string(contact.displayName))]) }

    /// `items` without repeats, first occurrence kept.
    static func unique<T: Equatable>(_ items: [T]) -> [T] {
        var kept: [T] = []
        for item in items where !kept.contains(item) { kept.append(item) }
        return kept
    }
}
