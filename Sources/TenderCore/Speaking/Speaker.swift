// SPDX-License-Identifier: Apache-2.0
/// Says each turn of one dialog to the person, in its language, from that language's
/// ``SentenceTable``: the question of every open parameter (with each option's words and, where a
/// value was refused, what may be said instead), the question before money moves, and the outcome.
/// Every sentence is at most ``maxLength`` characters. Pure; a value type made per call.
struct Speaker {
    /// The longest sentence said: short enough for a voice to speak in one breath.
    static let maxLength = 160

    let language: SpeechLanguage
    let intent: Intent
    let today: LocalDate
    let limits: PaymentLimits

    var table: any SentenceTable { language.sentences }

    // MARK: parameters

    /// The sentence for `resolution` (nil for success and notRequired), offering `help` (what may be said instead of a refused value).
    func say(_ resolution: ParameterResolution, help: [ResolutionOption]) -> String? {
        let subject = SpokenSubject.of(resolution.parameter, in: intent.schema)
        let message = resolution.message
        switch resolution.result {
        case .success, .notRequired:
            return nil
        case let .disambiguation(prompt, options):
            if prompt == DestinationQuestion.prompt, resolution.parameter == DestinationQuestion.parameter { return table.destinationQuestion() }
            if let message { return fit(message, or: table.which(subject, table.list(options.indices.map { String($0 + 1) }, or: true))) }
            let kind = prompt == "handle" ? SpokenSubject.handle : subject
            let words = options.map { optionWords($0, prompt: prompt) }
            let frame = table.which(kind, "")
            return table.which(kind, table.options(words, budget: Self.maxLength - frame.count))
        case let .confirmationRequired(value):
            if let message { return fit(message, or: table.didYouMean(valueWords(value))) }
            if value["amountType"]?.stringValue == AmountType.amountDue.rawValue, let amount = money(value["amount"]) {
                return table.payAmountDue(amount)
            }
            if [.payee, .payer].contains(subject), intent.person(resolution.parameter)?.name == nil, let name = value["displayName"]?.stringValue {
                return fit(table.payAgain(name), or: table.payAgain(""))
            }
            return fit(table.didYouMean(valueWords(value)), or: table.didYouMean(""))
        case .needsValue:
            let base = fit(message ?? table.needs(subject), or: table.needs(subject))
            return withHelp(base, help, resolution)
        case let .unsupported(code):
            let reason = UnsupportedReason(rawValue: code)
            let said = saidWords(resolution.parameter)
            let base = fit(message ?? table.refused(subject, reason, said: said, limit: limit(reason, resolution.parameter)),
                           or: table.refused(subject, reason, said: nil, limit: nil))
            if !help.isEmpty { return withHelp(base, help, resolution) }
            let next = [UnsupportedReason.insufficientFunds, .noAccount, .credentialsUnverified].contains(reason) ? nil : table.needs(subject)
            return next.map { base.count + 1 + $0.count <= Self.maxLength ? base + " " + $0 : base } ?? base
        }
    }

    /// `base` followed by what may be said ("You could say Checking or Savings."), as much of it as fits.
    private func withHelp(_ base: String, _ help: [ResolutionOption], _ resolution: ParameterResolution) -> String {
        guard !help.isEmpty else { return base }
        let budget = Self.maxLength - base.count - 1 - table.youCouldSay("").count
        guard budget > 8 else { return base }
        return base + " " + table.youCouldSay(table.options(help.map { optionWords($0, prompt: helpPrompt(resolution)) }, budget: budget))
    }

    /// The words to say for one option: a name, a handle's label in the language, an account.
    func optionWords(_ option: ResolutionOption, prompt: String) -> String {
        if prompt == DestinationQuestion.prompt { return table.destinationOption(option.id) }
        var label = prompt == "handle" ? table.handleLabel(option.label) : option.label
        if prompt == "account", AccountType(rawValue: label) != nil { return table.caseName(label) }
        // "Electric Company, 12 Main Street" → "Electric Company (12 Main Street)": a list of them stays clear.
        if prompt == "billPayee", let comma = label.firstRange(of: ", ") {
            label = label[..<comma.lowerBound] + " (" + label[comma.upperBound...] + ")"
        }
        return String(label.prefix(60))
    }

    /// The kind of the options offered instead of a refused value ("account", "billPayee"), as a disambiguation's prompt names it.
    func helpPrompt(_ resolution: ParameterResolution) -> String {
        switch intent.schema.kind(of: resolution.parameter) {
        case .account?: return "account"
        case .billPayee?: return "billPayee"
        case .person?: return "person"
        default: return ""
        }
    }

    /// `sentence` when it is short enough, else `shorter`.
    private func fit(_ sentence: String, or shorter: String) -> String {
        sentence.count <= Self.maxLength ? sentence : String(shorter.prefix(Self.maxLength))
    }

    /// Words that lead a value as the labeller hears it and name nothing ("my vacation", "de vacaciones").
    private static let leadingWords: Set<String> = ["my", "the", "a", "mi", "mis", "la", "el", "los", "las", "de", "del", "tu"]

    /// The parameter's value as the person said it, for a refusal ("You have no account called Travel."); nil when unsaid.
    private func saidWords(_ parameter: String) -> String? {
        let text: String?
        switch intent.values[parameter] {
        case let .person(query)?: text = query.name
        case let .account(query)?: text = query.nickname ?? query.type.map { table.caseName($0.rawValue) }
        case let .billPayee(query)?: text = query.name
        case let .text(value)?, let .phrase(value)?: text = value
        default: text = nil
        }
        guard var words = text?.trimmingCharacters().split(separator: " ") else { return nil }
        while words.count > 1, let first = words.first, Self.leadingWords.contains(first.lowercased()) { words.removeFirst() }
        let said = String(words.joined(separator: " ").prefix(40))
        return said.isEmpty || said.contains("{") ? nil : said
    }

    /// The limit an amount broke, in words ("$10,000").
    private func limit(_ reason: UnsupportedReason?, _ parameter: String) -> String? {
        let said: Money?
        switch intent.values[parameter] {
        case let .money(amount)?: said = amount
        case let .transactionAmount(stated)?: said = stated.amount
        default: said = nil
        }
        guard let said, let bounds = limits.bounds(for: said.currency) else { return nil }
        switch reason {
        case .paymentsAmountBelowMinimum?: return SpokenFormat.money(bounds.minimum, language)
        case .paymentsAmountAboveMaximum?: return SpokenFormat.money(bounds.maximum, language)
        default: return nil
        }
    }

    /// A resolved or suggested value in words: a name, an account, an amount, a day, a case.
    func valueWords(_ value: JSONValue) -> String {
        for member in ["displayName", "organizationName", "nickname"] {
            if let text = value[member]?.stringValue { return String(text.prefix(60)) }
        }
        if let type = value["type"]?.stringValue, value["id"] != nil { return table.caseName(type) }
        if let amount = money(value["amount"]) ?? money(value) { return amount }
        if let text = value.stringValue {
            if let day = try? LocalDate(text: text, field: "value") { return SpokenFormat.day(day, language, today: today) }
            return table.caseName(String(text.prefix(60)))
        }
        if case let .bool(flag) = value { return flag ? language.replyWords.yes[0] : language.replyWords.no[0] }
        return ""
    }

    /// An amount's JSON in words, or nil.
    func money(_ json: JSONValue?) -> String? {
        guard let json, let amount = try? Money(json: json, field: "amount") else { return nil }
        return SpokenFormat.money(amount, language)
    }

    // MARK: confirm and handle

    /// What confirm says: the question before money moves (when ready), or why it cannot go ahead.
    func confirmation(_ code: ResponseCode, plan: Confirmation.Plan?) -> String? {
        if code == .ready {
            switch plan {
            case let .payment(payment)?: return question(payment)
            case let .custom(custom)? where custom.movesMoney: return question(custom)
            default: return nil
            }
        }
        var account: String?
        if case let .payment(payment)? = plan { account = payment.account.map(accountWords) }
        return table.failed(code, account: account)
    }

    /// The question before a payment: "Send $50 to John Baily from Checking?", with the fee when there is one.
    func question(_ plan: PaymentPlan) -> String {
        let amount = SpokenFormat.money(plan.amount, language)
        let from = plan.account.map(accountWords)
        let day = plan.details.first { $0.key == "transactionScheduledDate" }?.value.stringValue
            .flatMap { try? LocalDate(text: $0, field: "day") }.map { SpokenFormat.day($0, language, today: today) }
        var sentence: String
        switch plan.intent.name {
        case IntentSchema.sendPayment.name: sentence = table.confirmSend(amount: amount, to: party(plan, "payee"), from: from)
        case IntentSchema.requestPayment.name: sentence = table.confirmRequest(amount: amount, from: party(plan, "payer"), into: from)
        case IntentSchema.payBill.name: sentence = table.confirmPayBill(amount: amount, to: party(plan, "billPayee"), from: from, on: day)
        default: sentence = table.confirmTransfer(amount: amount, from: from, to: party(plan, "toAccount"), on: day)
        }
        if let fee = plan.fee, fee.minorUnits > 0 { sentence += " " + table.fee(SpokenFormat.money(fee, language)) }
        return sentence
    }

    /// The question before a custom intent is taken. One that moves money is asked in Tender's words,
    /// whatever its definition says: the amount, who is paid and the account. Any other is asked with its
    /// shortcut title in the language, else its title and the amount.
    func question(_ plan: CustomIntentPlan) -> String {
        if plan.movesMoney {
            return table.confirmMove(
                amount: plan.amount.map { SpokenFormat.money($0, language) } ?? "", to: plan.payeeWords, from: plan.account.map(accountWords))
        }
        let filled = Set(plan.values.map(\.key))
        let type = plan.definition.shortcutTypes.filter { Set($0.parameters).isSubset(of: filled) }.max { $0.parameters.count < $1.parameters.count }
        let title = type?.title.render(plan.words, language: language.rawValue)
            ?? "\(plan.definition.title) \(plan.amount.map { SpokenFormat.money($0, language) } ?? "")"
        return table.confirmTitle(title.trimmingCharacters())
    }

    /// What handle says: what was done, or why nothing was.
    func outcome(_ outcome: HandleOutcome, plan: Confirmation.Plan?) -> String? {
        if let denial = outcome.denial { return table.notAuthenticated(denial) }
        if let text = outcome.response?.text, outcome.code == .success || outcome.code == .inProgress || outcome.response != nil {
            return String(text.prefix(Self.maxLength))
        }
        guard outcome.code == .success else {
            var account: String?
            if case let .payment(payment)? = plan { account = payment.account.map(accountWords) }
            return table.failed(outcome.code, account: account)
        }
        if let result = outcome.result { return found(result) }
        guard case let .payment(payment)? = plan else { return nil }
        let amount = SpokenFormat.money(payment.amount, language)
        let day = payment.status == .pending
            ? payment.details.first { $0.key == "transactionScheduledDate" }?.value.stringValue
                .flatMap { try? LocalDate(text: $0, field: "day") }.map { SpokenFormat.day($0, language, today: today) } : nil
        switch payment.intent.name {
        case IntentSchema.sendPayment.name: return table.sent(amount: amount, to: party(payment, "payee"))
        case IntentSchema.requestPayment.name: return table.requested(amount: amount, from: party(payment, "payer"))
        case IntentSchema.payBill.name: return table.paidBill(amount: amount, to: party(payment, "billPayee"), on: day)
        case IntentSchema.transferMoney.name:
            return table.transferred(amount: amount, from: payment.account.map(accountWords), to: party(payment, "toAccount"), on: day)
        default: return nil
        }
    }

    /// A search's result: the balances or the bills when they fit in one sentence ("Safe-to-Spend has
    /// $412.35."), else how many were found.
    func found(_ result: JSONValue) -> String? {
        let kinds: [(String, SearchKind)] = [("bills", .bills), ("accounts", .accounts), ("payments", .payments)]
        guard let (items, kind) = kinds.lazy.compactMap({ key, kind in result[key]?.arrayValue.map { ($0, kind) } }).first else { return nil }
        let count = table.found(items.count, of: kind)
        var parts: [String] = []
        for item in items {
            switch kind {
            case .accounts:
                guard let balance = item["balance"], let type = balance["type"]?.stringValue else { return count }
                let amount = money(balance["amount"]) ?? balance["amount"].map { "\(JSONWriter.string($0)) \(table.caseName(type))" } ?? ""
                let name = item["nickname"]?.stringValue ?? item["type"]?.stringValue.map(table.caseName) ?? valueWords(item)
                parts.append(table.balance(of: String(name.prefix(60)), amount))
            case .bills:
                guard let amount = money(item["amountDue"]), let due = item["dueDate"]?.stringValue.flatMap({ try? LocalDate(text: $0, field: "due") })
                else { return count }
                parts.append(table.bill(to: item["billPayee"].map(valueWords) ?? "", amount, due: SpokenFormat.day(due, language, today: today)))
            case .payments:
                return count
            }
        }
        guard !parts.isEmpty else { return count }
        let listed = table.list(parts, or: false) + "."
        if kind == .accounts, listed.count <= Self.maxLength { return listed }
        return count.count + 1 + listed.count <= Self.maxLength ? count + " " + listed : count
    }

    /// The person, payee or account a payment's `key` names, in words.
    private func party(_ plan: PaymentPlan, _ key: String) -> String {
        guard let value = plan.details.first(where: { $0.key == key })?.value else { return "" }
        return valueWords(value)
    }

    private func accountWords(_ account: Account) -> String { account.nickname ?? table.caseName(account.type.rawValue) }
}
