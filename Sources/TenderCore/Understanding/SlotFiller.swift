// SPDX-License-Identifier: Apache-2.0
/// Turns the labeller's spans into the parameters of the intent the
/// classifier chose. Only value normalisation is done by hand here, where it
/// is right by construction: an amount or date span is read by
/// ``AmountExtractor`` and ``DateExtractor``, names are matched against the
/// directory and vocabulary, and fixed words name enum cases (bill kinds,
/// account types, statuses, balance types, amount types).
enum SlotFiller {
    static let billKinds: [String: BillType] = [
        "electric": .electricity, "electricity": .electricity, "power": .electricity, "light": .electricity, "water": .water,
        "phone": .phone, "cell": .phone, "mobile": .phone, "cable": .cable, "tv": .cable, "internet": .internet, "wifi": .internet,
        "gas": .gas, "rent": .rent, "mortgage": .mortgage, "tuition": .tuition, "sewer": .sewer, "trash": .garbageAndRecycling,
        "garbage": .garbageAndRecycling, "recycling": .garbageAndRecycling, "utility": .utilities, "utilities": .utilities,
        "luz": .electricity, "electricidad": .electricity, "agua": .water, "teléfono": .phone, "telefono": .phone, "celular": .phone,
        "alquiler": .rent, "renta": .rent, "hipoteca": .mortgage,
    ]
    static let accountTypes: [String: AccountType] = [
        "checking": .checking, "savings": .saving, "saving": .saving, "credit": .credit, "debit": .debit, "investment": .investment,
        "brokerage": .investment, "mortgage": .mortgage, "prepaid": .prepaid, "cheques": .checking, "corriente": .checking,
        "ahorros": .saving, "crédito": .credit, "débito": .debit, "inversión": .investment,
    ]
    /// The words before a transfer's source and destination account.
    static let fromWords: Set<String> = ["from", "de", "desde"]
    static let toWords: Set<String> = ["to", "into", "a", "al", "hacia", "en"]
    /// Words dropped at the start of a name, note or account phrase.
    static let articles: Set<String> = ["my", "the", "a", "an", "our", "mi", "mis", "el", "la", "los", "las", "un", "una", "su"]

    static func fill(_ intent: String, _ u: Utterance, _ spans: [TaggedSpan], _ finder: PhraseFinder, _ context: ParseContext)
        throws(TenderError) -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [("intent", .string(intent))]
        func first(_ slot: String) -> TaggedSpan? { spans.first { $0.slot == slot } }
        switch intent {
        case "send_payment", "request_payment":
            if let name = named(u, first("person"), known: try finder.person()) {
                members.append((intent == "send_payment" ? "payee" : "payer", .object([("name", .string(name))])))
            }
            if let money = amount(u, first("amount")) { members.append(("currencyAmount", money.json)) }
            if let note = first("note").flatMap({ text(u, $0) }) { members.append(("note", .string(note))) }
        case "pay_bill":
            if let org = named(u, first("org"), known: try finder.organization()) { members.append(("billPayee", .object([("name", .string(org))]))) }
            if let from = try account(u, first("from_account"), finder) { members.append(("fromAccount", from)) }
            var amount: [(key: String, value: JSONValue)] = []
            if let type = amountType(u) { amount.append(("amountType", .string(type.rawValue))) }
            if let money = self.amount(u, first("amount")) { amount.append(("amount", money.json)) }
            if !amount.isEmpty { members.append(("transactionAmount", .object(amount))) }
            if let day = date(u, first("date"))?.day, day >= context.today { members.append(("transactionScheduledDate", day.json)) }
            if let type = billType(u, first("bill_type"), context) { members.append(("billType", .string(type.rawValue))) }
        case "search_for_bills":
            if let org = named(u, first("org"), known: try finder.organization()) { members.append(("billPayee", .object([("name", .string(org))]))) }
            if let range = date(u, first("date")).flatMap(range) {
                members.append((u.has("paid") && !u.has("unpaid") ? "paymentDateRange" : "dueDateRange", range.json))
            }
            if let type = billType(u, first("bill_type"), context) { members.append(("billType", .string(type.rawValue))) }
            if u.hasAny(["unpaid", "outstanding", "overdue", "pendientes", "pendiente"]) {
                members.append(("status", .string("unpaid")))
            } else if u.has("paid") {
                members.append(("status", .string("completed")))
            }
        case "transfer_money":
            var from = try account(u, first("from_account"), finder)
            var to = try account(u, first("to_account"), finder)
            // An account word the labeller did not mark ("... a corriente"): after "from"/"de" the source, after
            // "to"/"a" the destination.
            for (at, word) in u.words.enumerated() where (from == nil || to == nil) && accountTypes[word] != nil && at > 0 {
                guard !spans.contains(where: { $0.tokens.contains(at) }) else { continue }
                let span = TaggedSpan(slot: "account", tokens: at..<(at + 1))
                // "from a checking": an article between; "a corriente": Spanish "a" is "to".
                var before = u.words[at - 1]
                if at > 1, articles.contains(before), fromWords.contains(u.words[at - 2]) || toWords.contains(u.words[at - 2]) {
                    before = u.words[at - 2]
                }
                if fromWords.contains(before), from == nil {
                    from = try account(u, span, finder)
                } else if toWords.contains(before), to == nil {
                    to = try account(u, span, finder)
                }
            }
            // The directory's accounts the labeller did not mark: after "from" the source, else the destination.
            for named in try finder.accounts() where from == nil || to == nil {
                let reference = JSONValue.object([("id", .string(named.account.id))])
                guard from != reference, to != reference else { continue }
                if named.range.lowerBound > 0, u.words[named.range.lowerBound - 1] == "from" || u.words[named.range.lowerBound - 1] == "de" {
                    if from == nil { from = reference }
                } else if to == nil {
                    to = reference
                }
            }
            if let from { members.append(("fromAccount", from)) }
            if let to { members.append(("toAccount", to)) }
            if let money = amount(u, first("amount")) { members.append(("transactionAmount", .object([("amount", money.json)]))) }
            if let day = date(u, first("date"))?.day, day > context.today { members.append(("transactionScheduledDate", day.json)) }
        case "search_for_accounts":
            let said = first("account") ?? first("from_account") ?? first("to_account")
            let named = try finder.accounts()
            if let said, let named = named.first(where: { $0.range.overlaps(said.tokens) }) {
                members.append(("accountNickname", .string(named.account.spokenName)))
            } else if said == nil, let named = named.first {
                // The directory names one of the person's accounts the labeller did not mark.
                members.append(("accountNickname", .string(named.account.spokenName)))
            } else if let said, let type = u.words[said.tokens].compactMap({ accountTypes[$0] }).first {
                members.append(("accountType", .string(type.rawValue)))
            } else if let said, let nickname = text(u, said) {
                members.append(("accountNickname", .string(nickname)))
            }
            if let bank = first("org").flatMap({ text(u, $0) }) { members.append(("organizationName", .string(bank))) }
            if u.hasAny(["points", "rewards", "reward", "puntos"]) {
                members.append(("requestedBalanceType", .string("points")))
            } else if u.hasAny(["miles", "millas"]) {
                members.append(("requestedBalanceType", .string("miles")))
            }
        case "search_for_payments":
            // The party is a person, or the company paid ("did I pay the electric company").
            let person = named(u, first("person"), known: try finder.person())
            let company = named(u, first("org"), known: try finder.organization())
            if let name = person ?? company { members.append(("party", .object([("name", .string(name))]))) }
            if let range = date(u, first("date")).flatMap(range) { members.append(("dateRange", range.json)) }
            let statuses: [String: PaymentStatus] = [
                "pending": .pending, "failed": .failed, "declined": .failed, "canceled": .canceled, "cancelled": .canceled, "pendientes": .pending,
            ]
            if let status = u.words.compactMap({ statuses[$0] }).first { members.append(("status", .string(status.rawValue))) }
        default:
            break
        }
        return .object(members)
    }

    /// A span's words as said (lower case), without a leading article; nil when nothing is left.
    static func text(_ u: Utterance, _ span: TaggedSpan) -> String? {
        var words = Array(u.words[span.tokens])
        while let word = words.first, articles.contains(word) { words.removeFirst() }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A name: the directory's (`known`, a contact or an organization) inside the labelled words, or the only one
    /// said when the labeller marked none; else the labelled words.
    static func named(_ u: Utterance, _ span: TaggedSpan?, known: (name: String, range: Range<Int>)?) -> String? {
        guard let span else { return known?.name }
        if let known, known.range.overlaps(span.tokens) { return known.name }
        return text(u, span)
    }

    /// An account: `{"id"}` of the directory's account named in the span; for an account word in English or
    /// Spanish ("savings", "ahorros", "corriente", "cheques"), the person's one account of that type (or the one
    /// of them named for the type, "Savings"), else `{"type"}`; else `{"nickname"}` of its words.
    static func account(_ u: Utterance, _ span: TaggedSpan?, _ finder: PhraseFinder) throws(TenderError) -> JSONValue? {
        guard let span else { return nil }
        if let named = try finder.accounts().first(where: { $0.range.overlaps(span.tokens) }) {
            return .object([("id", .string(named.account.id))])
        }
        let words = (text(u, span) ?? "").split(separator: " ").filter { !["account", "cuenta", "de"].contains($0) }
        if words.count == 1, let type = accountTypes[String(words[0])] {
            let ofType = try finder.directory?.accounts().filter { $0.type == type } ?? []
            let namedForType = ofType.filter { AccountType.spoken($0.nickname ?? "") == type }
            if let only = ofType.count == 1 ? ofType.first : (namedForType.count == 1 ? namedForType.first : nil) {
                return .object([("id", .string(only.id))])
            }
            return .object([("type", .string(type.rawValue))])
        }
        return words.isEmpty ? nil : .object([("nickname", .string(words.joined(separator: " ")))])
    }

    /// The amount in the labelled span (read by the amount normaliser, a bare number allowed); without a span,
    /// the first amount said with a currency.
    static func amount(_ u: Utterance, _ span: TaggedSpan?) -> Money? {
        guard let span else { return u.amounts.first(where: \.explicit)?.money }
        if let found = u.amounts.first(where: { $0.tokens.overlaps(span.tokens) }) { return found.money }
        return nil
    }

    /// The date or range in the labelled span.
    static func date(_ u: Utterance, _ span: TaggedSpan?) -> DateExtractor.Found? {
        guard let span else { return nil }
        return u.dates.first { $0.tokens.overlaps(span.tokens) }
    }

    /// A range said ("this month"), or a day as a one-day range.
    static func range(_ found: DateExtractor.Found) -> DateRange? {
        found.range ?? found.day.map { DateRange(start: $0, end: $0) }
    }

    /// "the minimum" → minimumDue, "the full balance" → amountDue, ...
    static func amountType(_ u: Utterance) -> AmountType? {
        let words = u.words
        if u.has("minimum") || u.has("mínimo") || u.has("minimo") { return .minimumDue }
        if Phrase.contains(["statement", "balance"], in: words) { return .statementBalance }
        if Phrase.contains(["current", "balance"], in: words) { return .currentBalance }
        if u.hasAny(["full", "whole", "total", "entire"]) || Phrase.contains(["amount", "due"], in: words) || u.has("balance") { return .amountDue }
        return nil
    }

    /// The bill kind in the labelled words, else a bill-type vocabulary phrase said.
    static func billType(_ u: Utterance, _ span: TaggedSpan?, _ context: ParseContext) -> BillType? {
        if let span {
            let words = Array(u.words[span.tokens])
            if Phrase.contains(["credit", "card"], in: words) { return .creditCard }
            if Phrase.contains(["student", "loan"], in: words) { return .studentLoan }
            if Phrase.contains(["car", "loan"], in: words) { return .carLoan }
            if let kind = words.compactMap({ billKinds[$0] }).first { return kind }
        }
        // A bill kind the labeller did not mark: the fixed words still name it.
        if let kind = u.words.compactMap({ billKinds[$0] }).first { return kind }
        guard let vocabulary = context.vocabulary.vocabulary(for: "billType") else { return nil }
        for word in u.words {
            if let match = VocabularyMatcher.matches(word, in: vocabulary).first(where: \.exact), let type = BillType(rawValue: match.id) { return type }
        }
        return nil
    }
}
