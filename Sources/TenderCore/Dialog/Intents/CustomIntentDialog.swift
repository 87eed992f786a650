// SPDX-License-Identifier: Apache-2.0
/// A custom intent's resolve and confirm, from its definition (docs/custom-intents.md), with the
/// built-in intents' resolvers: an amount against the engine's limits, an account, a person or a
/// bill payee against the directory; a string, integer or decimal against the definition's list
/// or the host's values; an enum against its cases. A parameter with `"confirm": true` is
/// confirmed by the person before it is taken. Every question and refusal carries the
/// definition's words (``ParameterResolution/message``). Confirm answers ready: what a custom
/// intent needs beyond its parameters is the host's to check when it handles.
struct CustomIntentDialog: IntentDialog {
    let definition: CustomIntentDefinition

    /// One parameter's settled value: as the handler gets it, in words, and what the gate and record need.
    struct Settled {
        var json: JSONValue
        var words: String
        var money: Money? = nil
        var account: Account? = nil
        var partyID: String? = nil
    }

    private func settle(_ c: inout DialogContext) throws(TenderError) -> [(parameter: CustomParameter, resolution: Resolution<Settled>)] {
        var settled: [(parameter: CustomParameter, resolution: Resolution<Settled>)] = []
        for parameter in definition.parameters {
            var resolution = parameter.list ? try list(parameter, &c) : try single(parameter, &c)
            if parameter.confirm { resolution = confirmed(parameter, resolution, &c) }
            settled.append((parameter, resolution))
        }
        return settled
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] {
        try settle(&c).map { item in
            ParameterResolution(parameter: item.parameter.name, result: item.resolution.result, message: message(item.parameter, item.resolution.result, c.intent, c.language))
        }
    }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        var values: [(key: String, value: JSONValue)] = []
        var words: [String: String] = [:]
        var amount: Money?
        var account: Account?
        var payee: (id: String, words: String)?
        for (parameter, resolution) in try settle(&c) {
            guard resolution.result.isResolved else { throw .wrongState("\(parameter.name) is not resolved; resolve and answer first") }
            guard let value = resolution.value else { continue }
            values.append((parameter.name, value.json))
            words[parameter.name] = value.words
            if parameter.type == .currencyAmount, amount == nil { amount = value.money }
            if parameter.type == .account, account == nil { account = value.account }
            // The party paid is a person or bill payee, never the account the money comes from.
            if [.person, .billPayee].contains(parameter.type), payee == nil, let id = value.partyID { payee = (id, value.words) }
        }
        let plan = CustomIntentPlan(
            definition: definition, values: values, words: words, amount: amount, account: account,
            partyID: payee?.id ?? account?.id ?? "", payeeWords: payee?.words)
        return Confirmation(.ready, [("intent", plan.intentJSON)], plan: .custom(plan))
    }

    // MARK: one value

    private func single(_ p: CustomParameter, _ c: inout DialogContext) throws(TenderError) -> Resolution<Settled> {
        let name = p.name
        switch p.type {
        case .currencyAmount:
            guard c.intent.money(name) != nil || p.required else { return Resolution(name, .notRequired) }
            let language = c.language
            return c.currencyAmount(name).map { Settled(json: $0.json, words: SpokenFormat.money($0, language), money: $0) }
        case .account:
            return try c.account(name, required: p.required).map { Settled(json: $0.reference, words: $0.spokenName, account: $0, partyID: $0.id) }
        case .person:
            return try c.person(name, required: p.required, suggestRecent: false, reach: false).map {
                Settled(json: $0.json, words: $0.contact.displayName, partyID: $0.contact.id)
            }
        case .billPayee:
            return try c.billPayee(name, required: p.required, offerUnpaid: false).map {
                Settled(json: $0.json, words: $0.organizationName, partyID: $0.id)
            }
        case .date:
            guard let day = c.intent.date(name) else { return absent(p, &c) }
            return Resolution(name, .success(day.json), Settled(json: day.json, words: day.description))
        case .dateRange:
            guard let range = c.intent.dateRange(name) else { return absent(p, &c) }
            return Resolution(name, .success(range.json), Settled(json: range.json, words: CustomValueWords.words(range.json, type: .dateRange)))
        case .boolean:
            guard let text = c.intent.text(name) else { return absent(p, &c) }
            return Resolution(name, .success(.bool(text == "true")), Settled(json: .bool(text == "true"), words: text == "true" ? "yes" : "no"))
        case .string, .integer, .decimal:
            guard let text = c.intent.text(name) else { return absent(p, &c) }
            return try choose(p, text, &c)
        case .enum:
            guard let phrase = c.intent.phrase(name) else { return absent(p, &c) }
            return enumCase(p, phrase, &c)
        }
    }

    private func absent(_ p: CustomParameter, _ c: inout DialogContext) -> Resolution<Settled> {
        p.required ? c.askValue(p.name, .needsValue) : Resolution(p.name, .notRequired)
    }

    /// The JSON a string, integer or decimal value is handed over as (a decimal stays text: never floating point).
    private static func json(_ text: String, _ type: CustomParameterType) -> JSONValue { type == .integer ? .number(text) : .string(text) }

    /// The reason a value outside the choices is refused with: the definition's first, else unknownValue.
    private static func notAmong(_ p: CustomParameter) -> ResolutionResult {
        .unsupported(reason: p.unsupportedReasons.first?.code ?? UnsupportedReason.unknownValue.rawValue)
    }

    /// A value checked against its choices (the definition's list or the host's): exactly one → success,
    /// several containing the words said → disambiguation, one sounding alike → confirmationRequired.
    private func choose(_ p: CustomParameter, _ said: String, _ c: inout DialogContext) throws(TenderError) -> Resolution<Settled> {
        func settled(_ value: String) -> Resolution<Settled> {
            Resolution(p.name, .success(Self.json(value, p.type)), Settled(json: Self.json(value, p.type), words: value))
        }
        let choices = try Self.choices(p, of: definition, c.engine)
        guard let choices else { return settled(said) }
        if let chosen = c.state.chosen[p.name], choices.contains(chosen) { return settled(chosen) }
        let key = PhraseKey.compact(said)
        if let exact = choices.first(where: { PhraseKey.compact($0) == key }) { return settled(exact) }
        let within = choices.filter { DialogContext.wordsWithin(said, $0) && $0.utf8.count <= 128 }
        if within.count == 1 { return settled(within[0]) }
        if within.count > 1 { return c.askChoice(p.name, key: p.name, prompt: p.name, within.map { ResolutionOption(id: $0, label: $0) }) }
        let items = choices.filter { $0.utf8.count <= 128 }.map { VocabularyItem(id: $0, name: $0) }
        if let similar = VocabularyMatcher.matches(said, in: items).first, !c.state.declined.contains(p.name) {
            return c.askConfirm(p.name, key: p.name, choices: [p.name: similar.id], shown: .string(similar.id))
        }
        return c.askValue(p.name, Self.notAmong(p))
    }

    /// The values `p` may take, or nil when any value of its type will do.
    static func choices(_ p: CustomParameter, of definition: CustomIntentDefinition, _ engine: Engine) throws(TenderError) -> [String]? {
        switch p.values {
        case .open: return nil
        case let .list(items): return items
        case .host:
            guard let host = engine.customIntents.host else {
                throw .callback("no host lists the values of \(definition.name).\(p.name): register the custom intents' host first")
            }
            return try host.values(intent: definition.name, parameter: p.name)
        }
    }

    /// An enum's case by name or synonym; one sounding alike is offered for confirmation.
    private func enumCase(_ p: CustomParameter, _ said: String, _ c: inout DialogContext) -> Resolution<Settled> {
        func settled(_ name: String) -> Resolution<Settled> { Resolution(p.name, .success(.string(name)), Settled(json: .string(name), words: name)) }
        if let chosen = c.state.chosen[p.name], p.cases.contains(where: { $0.name == chosen }) { return settled(chosen) }
        if let found = Self.caseNamed(said, in: p) { return settled(found) }
        let items = p.cases.map { VocabularyItem(id: $0.name, phrase: $0.name, pronunciation: nil, alternatives: $0.synonyms) }
        if let similar = VocabularyMatcher.matches(said, in: items).first, !c.state.declined.contains(p.name) {
            return c.askConfirm(p.name, key: p.name, choices: [p.name: similar.id], shown: .string(similar.id))
        }
        return c.askValue(p.name, Self.notAmong(p))
    }

    private static func caseNamed(_ said: String, in p: CustomParameter) -> String? {
        let key = PhraseKey.compact(said)
        return p.cases.first { ([$0.name] + $0.synonyms).contains { PhraseKey.compact($0) == key } }?.name
    }

    /// A value the person confirms before it is taken: kept once they said yes to this very value.
    private func confirmed(_ p: CustomParameter, _ resolution: Resolution<Settled>, _ c: inout DialogContext) -> Resolution<Settled> {
        guard let value = resolution.value else { return resolution }
        let key = p.name + ".confirmed"
        let shown = JSONWriter.string(value.json)
        if c.state.chosen[key] == shown { return resolution }
        if c.state.declined.contains(key) { return c.askValue(p.name, .needsValue) }
        return c.askConfirm(p.name, key: key, choices: [key: shown], shown: value.json)
    }

    // MARK: a list

    /// A list parameter: every item must be valid on its own (an amount within the limits, a case, one of the
    /// choices, an account, person or bill payee named exactly); the first that is not makes it unsupported.
    private func list(_ p: CustomParameter, _ c: inout DialogContext) throws(TenderError) -> Resolution<Settled> {
        guard let items = c.intent.list(p.name) else { return absent(p, &c) }
        let choices = try Self.choices(p, of: definition, c.engine)
        var values: [JSONValue] = []
        var words: [String] = []
        var parties: [String] = []
        for item in items {
            if case let .money(amount) = item, let reason = c.limitViolation(amount) { return c.askValue(p.name, .unsupported(reason: reason.rawValue)) }
            guard let (json, said) = try listItem(item, p, choices, c) else { return c.askValue(p.name, Self.notAmong(p)) }
            values.append(json)
            words.append(said)
            if let id = json["id"]?.stringValue, [.person, .billPayee].contains(p.type) { parties.append(id) }
        }
        // Several people or payees are one party for the gate: never paid before, and a reuse covers only the same ones.
        let party = parties.isEmpty ? nil : Array(Set(parties)).sorted().joined(separator: ",")
        return Resolution(p.name, .success(.array(values)), Settled(json: .array(values), words: CustomValueWords.list(words), partyID: party))
    }

    private func listItem(_ item: ParameterValue, _ p: CustomParameter, _ choices: [String]?, _ c: DialogContext) throws(TenderError) -> (JSONValue, String)? {
        switch item {
        case let .money(money): return (money.json, PaymentPlan.spoken(money))
        case let .date(day): return (day.json, day.description)
        case let .dateRange(range): return (range.json, CustomValueWords.words(range.json, type: .dateRange))
        case let .phrase(said): return Self.caseNamed(said, in: p).map { (.string($0), $0) }
        case let .text(text):
            if p.type == .boolean { return (.bool(text == "true"), text == "true" ? "yes" : "no") }
            guard let choices else { return (Self.json(text, p.type), text) }
            return choices.first { PhraseKey.compact($0) == PhraseKey.compact(text) }.map { (Self.json($0, p.type), $0) }
        case let .account(query):
            let accounts = try c.directory.accounts()
            let found = query.id != nil ? accounts.filter { $0.id == query.id } : try c.accountsNamed(query.nickname ?? "", in: accounts)
            return found.count == 1 ? (found[0].reference, found[0].spokenName) : nil
        case let .person(query):
            let contacts = try c.directory.contacts()
            let found = contacts.filter { $0.id == query.contactID || PhraseKey.compact($0.displayName) == PhraseKey.compact(query.name ?? "") }
            return found.count == 1 ? (DialogContext.personJSON(found[0]), found[0].displayName) : nil
        case let .billPayee(query):
            let payees = try c.directory.billPayees()
            let found = payees.filter { $0.id == query.id || PhraseKey.compact($0.organizationName) == PhraseKey.compact(query.name ?? "") }
            return found.count == 1 ? (found[0].json, found[0].organizationName) : nil
        case .transactionAmount, .list: return nil
        }
    }

    // MARK: words

    /// What to say for `result`, in the definition's words: the needsValue, disambiguation or confirmation
    /// prompt, or the unsupported reason's message; nil when the definition has none for it.
    private func message(_ p: CustomParameter, _ result: ResolutionResult, _ intent: Intent, _ language: SpeechLanguage) -> String? {
        let said = Self.said(p, intent)
        let code = language.rawValue
        switch result {
        case .needsValue: return p.prompts.needsValue?.render([p.name: said], language: code)
        case let .disambiguation(_, options):
            return p.prompts.disambiguation?.render(["options": language.sentences.list(options.map(\.label), or: true), p.name: said], language: code)
        case let .confirmationRequired(value):
            return p.prompts.confirmation?.render([p.name: CustomValueWords.words(value, type: p.type, language: language)], language: code)
        case let .unsupported(reason): return p.unsupportedReasons.first { $0.code == reason }?.message.render([p.name: said], language: code)
        case .success, .notRequired: return nil
        }
    }

    /// The value of `p` as the person said it, for a message about it.
    private static func said(_ p: CustomParameter, _ intent: Intent) -> String {
        switch intent.values[p.name] {
        case let .text(text)?, let .phrase(text)?: return text
        case let .money(money)?: return PaymentPlan.spoken(money)
        case let .person(query)?: return query.name ?? ""
        case let .account(query)?: return query.nickname ?? query.type?.rawValue ?? ""
        case let .billPayee(query)?: return query.name ?? ""
        case let .date(day)?: return day.description
        default: return ""
        }
    }
}
