// SPDX-License-Identifier: Apache-2.0
/// The parameters of a custom intent understood from an utterance (``CustomIntentMatcher``).
/// A parameter the nearest example marks takes the words the utterance has in its place,
/// read by its type (an amount or a date by the value normalisers); a parameter no example
/// of the intent marks takes the slot labeller's value of its type. Others stay unset, for
/// the dialog to ask.
enum CustomSlotFiller {
    static func fill(_ match: CustomIntentMatcher.Match, _ u: Utterance, _ spans: [TaggedSpan], _ finder: PhraseFinder)
        throws(TenderError) -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [("intent", .string(match.intent.name))]
        let markedSomewhere = Set(match.intent.examples.flatMap { $0.spans.map(\.parameter) })
        let words = u.tokens.map(\.text)
        for parameter in match.intent.parameters {
            var value: JSONValue?
            if let span = match.example.spans.first(where: { $0.parameter == parameter.name }) {
                value = CustomIntentMatcher.valueTokens(span, words: words).flatMap { read(parameter, u, $0) }
            } else if !markedSomewhere.contains(parameter.name) {
                value = try labelled(parameter, u, spans, finder)
            }
            if let value { members.append((parameter.name, value)) }
        }
        return .object(members)
    }

    /// The value of `parameter` in the utterance's tokens `range`.
    static func read(_ parameter: CustomParameter, _ u: Utterance, _ range: Range<Int>) -> JSONValue? {
        let said = u.tokens[range].map(\.text).joined(separator: " ")
        switch parameter.type {
        case .currencyAmount: return u.amounts.first { $0.tokens.overlaps(range) }?.money.json
        case .date: return u.dates.first { $0.tokens.overlaps(range) }?.day?.json
        case .dateRange: return u.dates.first { $0.tokens.overlaps(range) }.flatMap(SlotFiller.range)?.json
        case .person, .billPayee: return .object([("name", .string(said))])
        case .account:
            let nickname = said.split(separator: " ").filter { $0 != "account" && $0 != "cuenta" }.joined(separator: " ")
            return nickname.isEmpty ? nil : .object([("nickname", .string(nickname))])
        case .enum:
            let chosen = parameter.cases.first { ([$0.name] + $0.synonyms).contains { $0.lowercased() == said } }
            return chosen.map { .string($0.name) }
        case .integer: return Int64(said).map { .number(String($0)) }
        case .boolean: return ["yes", "true", "on"].contains(said) ? .bool(true) : ["no", "false", "off"].contains(said) ? .bool(false) : nil
        case .string, .decimal: return .string(said)
        }
    }

    /// The slot labeller's value of `parameter`'s type, when it marked one.
    static func labelled(_ parameter: CustomParameter, _ u: Utterance, _ spans: [TaggedSpan], _ finder: PhraseFinder) throws(TenderError) -> JSONValue? {
        func first(_ slots: String...) -> TaggedSpan? { spans.first { slots.contains($0.slot) } }
        switch parameter.type {
        case .currencyAmount: return SlotFiller.amount(u, first("amount"))?.json
        case .person: return SlotFiller.named(u, first("person"), known: try finder.person()).map { .object([("name", .string($0))]) }
        case .billPayee: return SlotFiller.named(u, first("org"), known: try finder.organization()).map { .object([("name", .string($0))]) }
        case .account: return try SlotFiller.account(u, first("from_account", "to_account", "account"), finder)
        case .date: return SlotFiller.date(u, first("date"))?.day?.json
        case .dateRange: return SlotFiller.date(u, first("date")).flatMap(SlotFiller.range)?.json
        case .string, .integer, .decimal, .boolean, .enum: return nil
        }
    }
}
