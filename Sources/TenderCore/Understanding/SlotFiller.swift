/// Fills the parameters of the intent the model chose from what the
/// utterance says: organizations, bill kinds, amount types, accounts, dates,
/// people, statuses, balance types.
enum SlotFiller {
    static let billKinds: [String: BillType] = [
        "electric": .electricity, "electricity": .electricity, "power": .electricity, "light": .electricity, "water": .water,
        "phone": .phone, "cell": .phone, "mobile": .phone, "cable": .cable, "tv": .cable, "internet": .internet, "wifi": .internet,
        "gas": .gas, "rent": .rent, "mortgage": .mortgage, "tuition": .tuition, "sewer": .sewer, "trash": .garbageAndRecycling,
        "garbage": .garbageAndRecycling, "recycling": .garbageAndRecycling, "utility": .utilities, "utilities": .utilities,
        "luz": .electricity, "electricidad": .electricity, "agua": .water, "teléfono": .phone, "telefono": .phone, "alquiler": .rent,
        "renta": .rent, "hipoteca": .mortgage,
    ]
    static let accountTypes: [String: AccountType] = [
        "checking": .checking, "savings": .saving, "saving": .saving, "credit": .credit, "debit": .debit, "investment": .investment,
        "brokerage": .investment, "mortgage": .mortgage, "prepaid": .prepaid,
    ]

    static func fill(_ intent: String, _ u: Utterance, _ finder: PhraseFinder, _ context: ParseContext) throws(TenderError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("intent", .string(intent))]
        switch intent {
        case "pay_bill":
            if let org = try finder.organization() { members.append(("billPayee", .object([("name", .string(org.name))]))) }
            var amount: [(key: String, value: JSONValue)] = []
            if let type = amountType(u) { amount.append(("amountType", .string(type.rawValue))) }
            if let money = statedAmount(u) { amount.append(("amount", money.json)) }
            if !amount.isEmpty { members.append(("transactionAmount", .object(amount))) }
            if let day = u.dates.compactMap(\.day).first, day >= context.today { members.append(("transactionScheduledDate", day.json)) }
            if let type = billType(u, context) { members.append(("billType", .string(type.rawValue))) }
        case "search_for_bills":
            if let org = try finder.organization() { members.append(("billPayee", .object([("name", .string(org.name))]))) }
            if let range = dateRange(u) {
                members.append((u.has("paid") && !u.has("unpaid") ? "paymentDateRange" : "dueDateRange", range.json))
            }
            if let type = billType(u, context) { members.append(("billType", .string(type.rawValue))) }
            if u.hasAny(["unpaid", "outstanding", "overdue"]) {
                members.append(("status", .string("unpaid")))
            } else if u.has("paid") {
                members.append(("status", .string("completed")))
            }
        case "transfer_money":
            let (from, to) = try accounts(u, finder)
            if let from { members.append(("fromAccount", from)) }
            if let to { members.append(("toAccount", to)) }
            if let money = statedAmount(u) { members.append(("transactionAmount", .object([("amount", money.json)]))) }
            if let day = u.dates.compactMap(\.day).first, day > context.today { members.append(("transactionScheduledDate", day.json)) }
        case "search_for_accounts":
            if let named = try finder.accounts().first {
                members.append(("accountNickname", .string(named.account.spokenName)))
            } else if let type = u.words.compactMap({ accountTypes[$0] }).first {
                members.append(("accountType", .string(type.rawValue)))
            }
            if let bank = Featurizer.banks.first(where: { phrase in contains(u.words, phrase) }) {
                members.append(("organizationName", .string(bank.joined(separator: " "))))
            }
            if u.hasAny(["points", "rewards", "reward"]) {
                members.append(("requestedBalanceType", .string("points")))
            } else if u.has("miles") {
                members.append(("requestedBalanceType", .string("miles")))
            }
        case "search_for_payments":
            if let name = try finder.person()?.name ?? EnglishRules.candidate(u, after: ["to", "from", "with"]) {
                members.append(("party", .object([("name", .string(name))])))
            }
            if let range = dateRange(u) { members.append(("dateRange", range.json)) }
            let statuses: [String: PaymentStatus] = ["pending": .pending, "failed": .failed, "declined": .failed, "canceled": .canceled, "cancelled": .canceled]
            if let status = u.words.compactMap({ statuses[$0] }).first { members.append(("status", .string(status.rawValue))) }
        default:
            break
        }
        return .object(members)
    }

    /// The amount said: one with a currency, else a bare number that is the amount itself ("transfer 200 from
    /// checking", not "for 4 Lake Road").
    static func statedAmount(_ u: Utterance) -> Money? {
        if let explicit = u.amounts.first(where: \.explicit) { return explicit.money }
        return u.amounts.first { amount in
            EnglishRules.bareNumberIsTheAmount(amount, u.words) || (amount.tokens.upperBound < u.words.count && u.words[amount.tokens.upperBound] == "from")
        }?.money
    }

    static func contains(_ words: [String], _ phrase: [String]) -> Bool { Phrase.contains(phrase, in: words) }

    /// "the minimum" → minimumDue, "the full balance" → amountDue, ...
    static func amountType(_ u: Utterance) -> AmountType? {
        let words = u.words
        if u.has("minimum") || u.has("mínimo") { return .minimumDue }
        if contains(words, ["statement", "balance"]) { return .statementBalance }
        if contains(words, ["current", "balance"]) { return .currentBalance }
        if u.hasAny(["full", "whole", "total", "entire"]) || contains(words, ["amount", "due"]) || u.has("balance") { return .amountDue }
        return nil
    }

    static func billType(_ u: Utterance, _ context: ParseContext) -> BillType? {
        if let kind = u.words.compactMap({ billKinds[$0] }).first { return kind }
        if contains(u.words, ["credit", "card"]) { return .creditCard }
        if contains(u.words, ["student", "loan"]) { return .studentLoan }
        if contains(u.words, ["car", "loan"]) { return .carLoan }
        guard let vocabulary = context.vocabulary.vocabulary(for: "billType") else { return nil }
        for word in u.words {
            if let match = VocabularyMatcher.matches(word, in: vocabulary).first(where: \.exact), let type = BillType(rawValue: match.id) { return type }
        }
        return nil
    }

    /// A range said ("this month"), or a day said as a one-day range.
    static func dateRange(_ u: Utterance) -> DateRange? {
        if let range = u.dates.compactMap(\.range).first { return range }
        return u.dates.compactMap(\.day).first.map { DateRange(start: $0, end: $0) }
    }

    /// The accounts a transfer is from and to: those the directory names, in
    /// the order said around "from" and "to"/"into"; else the words after them.
    static func accounts(_ u: Utterance, _ finder: PhraseFinder) throws(TenderError) -> (JSONValue?, JSONValue?) {
        let words = u.words
        let fromAt = words.firstIndex(of: "from")
        let toAt = words.firstIndex { $0 == "to" || $0 == "into" }
        let named = try finder.accounts()
        func side(_ at: Int?, _ other: Int?) -> JSONValue? {
            guard let at else { return nil }
            let end = other.map { $0 > at ? $0 : words.count } ?? words.count
            if let account = named.first(where: { $0.range.lowerBound > at && $0.range.lowerBound < end }) {
                return .object([("id", .string(account.account.id))])
            }
            guard let phrase = u.phrase(after: at, limit: 5, stops: ["to", "into", "from", "and", "on", "tomorrow", "today", "please", "for"]) else {
                return nil
            }
            let kept = phrase.text.split(separator: " ").map(String.init).filter { !["my", "the", "account", "a", "our"].contains($0) }
            guard !kept.isEmpty else { return nil }
            return .object([("nickname", .string(kept.joined(separator: " ")))])
        }
        return (side(fromAt, toAt), side(toAt, fromAt))
    }
}
