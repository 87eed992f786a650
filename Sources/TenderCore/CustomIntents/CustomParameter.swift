// SPDX-License-Identifier: Apache-2.0
/// One parameter of a custom intent, as its definition declares it.
public struct CustomParameter: Equatable, Sendable {
    /// Where the values a person may choose from come from, when not from the directory.
    public enum ValueSet: Equatable, Sendable {
        /// Any value of the type.
        case open
        /// The host's lookup callback lists them when asked (e.g. the person's expenses).
        case host
        /// Fixed in the definition.
        case list([String])
    }

    /// The questions the dialog asks about this parameter.
    public struct Prompts: Equatable, Sendable {
        /// Asked when a required value is missing (`needsValue`).
        public var needsValue: MessageTemplate?
        /// Asked when several values fit (`disambiguation`); `${options}` names them.
        public var disambiguation: MessageTemplate?
        /// Asked before a value is taken (`confirmationRequired`).
        public var confirmation: MessageTemplate?
    }

    public let name: String
    public let type: CustomParameterType
    public let required: Bool
    /// Whether the parameter holds a list of values rather than one.
    public let list: Bool
    public let prompts: Prompts
    /// Whether the person confirms the value before it is taken.
    public let confirm: Bool
    public let values: ValueSet
    /// The cases of an enum parameter (empty for other types).
    public let cases: [CustomEnumCase]
    /// Reasons an `unsupported` resolution may give, by code, in the person's words.
    public let unsupportedReasons: [(code: String, message: MessageTemplate)]

    public static func == (a: CustomParameter, b: CustomParameter) -> Bool {
        a.name == b.name && a.type == b.type && a.required == b.required && a.list == b.list && a.prompts == b.prompts
            && a.confirm == b.confirm && a.values == b.values && a.cases == b.cases
            && a.unsupportedReasons.map(\.code) == b.unsupportedReasons.map(\.code)
    }

    /// The names a parameter may not take: the signed record's own members (``PaymentFingerprint/recordMembers``,
    /// `response`, `account`), which a parameter beside them would write twice.
    static let recordMemberNames = PaymentFingerprint.recordMembers.union(["response", "account"])

    /// Reads one parameter; `field` is its path for messages (e.g. `intent "expense", parameters[0]`).
    init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: field,
            allowed: ["name", "type", "required", "list", "prompts", "confirm", "values", "cases", "unsupportedReasons"])
        let name = try reader.requiredString("name", maxLength: 64)
        self.name = name
        guard CustomIntentDefinition.isIdentifier(name) else {
            throw .invalidArgument("\(field).name \"\(name)\" must start with a letter and hold only letters, digits and _")
        }
        guard !Self.recordMemberNames.contains(name) else {
            throw .invalidArgument(
                "\(field).name \"\(name)\" is a member of the intent's signed record (docs/records.md); choose another name")
        }
        let typeName = try reader.requiredString("type", maxLength: 64)
        guard let type = CustomParameterType(rawValue: typeName) else {
            throw .invalidArgument("\(field) \"\(name)\".type: unknown type \"\(typeName)\"; the types are \(CustomParameterType.names)")
        }
        self.type = type
        required = try reader.bool("required") ?? false
        list = try reader.bool("list") ?? false
        confirm = try reader.bool("confirm") ?? false
        prompts = try Self.prompts(reader["prompts"], field: "\(field) \"\(name)\".prompts")
        cases = try (reader.array("cases") ?? []).enumerated().map { (i, item) throws(TenderError) in
            try CustomEnumCase(json: item, field: "\(field) \"\(name)\".cases[\(i)]")
        }
        values = try Self.valueSet(reader["values"], field: "\(field) \"\(name)\".values")
        var reasons: [(String, MessageTemplate)] = []
        if let json = reader["unsupportedReasons"] {
            guard let members = json.objectMembers else {
                throw .invalidArgument("\(field) \"\(name)\".unsupportedReasons must be an object of reason codes and their messages")
            }
            for member in members {
                guard CustomIntentDefinition.isIdentifier(member.key), member.value.stringValue != nil || member.value.objectMembers != nil else {
                    throw .invalidArgument("\(field) \"\(name)\".unsupportedReasons: each reason is a code (letters, digits, _) with a message")
                }
                reasons.append((member.key, try MessageTemplate(json: member.value, field: "\(field) \"\(name)\".unsupportedReasons.\(member.key)")))
            }
        }
        unsupportedReasons = reasons
        try check(field: "\(field) \"\(name)\"")
    }

    /// The rules that need the whole parameter.
    private func check(field: String) throws(TenderError) {
        if type == .enum {
            guard !cases.isEmpty else { throw .invalidArgument("\(field) is an enum with no cases: add \"cases\"") }
            var seen = Set<String>()
            for word in cases.flatMap({ [$0.name] + $0.synonyms }) where !seen.insert(word.lowercased()).inserted {
                throw .invalidArgument("\(field).cases: \"\(word)\" names two cases or one twice")
            }
        } else if !cases.isEmpty {
            throw .invalidArgument("\(field).cases is only for a parameter of type enum")
        }
        if required && prompts.needsValue == nil {
            throw .invalidArgument("\(field) is required but has no prompts.needsValue: nothing could ask the person for it")
        }
        if confirm && prompts.confirmation == nil {
            throw .invalidArgument("\(field) asks for confirmation but has no prompts.confirmation to ask with")
        }
        if values != .open, ![.string, .integer, .decimal].contains(type) {
            throw .invalidArgument("\(field).values: a value set is for string, integer and decimal parameters; \(type.rawValue) values come from their own source")
        }
        let own = Set(["options", name])
        for (key, template) in [("needsValue", prompts.needsValue), ("disambiguation", prompts.disambiguation), ("confirmation", prompts.confirmation)] {
            guard let template else { continue }
            for placeholder in template.placeholders where !own.contains(placeholder) {
                throw .invalidArgument("\(field).prompts.\(key) names \"${\(placeholder)}\"; a prompt may name only its parameter \"${\(name)}\" and \"${options}\"")
            }
        }
    }

    private static func prompts(_ json: JSONValue?, field: String) throws(TenderError) -> Prompts {
        guard let json else { return Prompts() }
        let reader = try ObjectReader(json, name: field, allowed: ["needsValue", "disambiguation", "confirmation"])
        func template(_ key: String) throws(TenderError) -> MessageTemplate? {
            try reader[key].map { (json) throws(TenderError) in try MessageTemplate(json: json, field: "\(field).\(key)") }
        }
        return Prompts(needsValue: try template("needsValue"), disambiguation: try template("disambiguation"), confirmation: try template("confirmation"))
    }

    private static func valueSet(_ json: JSONValue?, field: String) throws(TenderError) -> ValueSet {
        guard let json else { return .open }
        if json.stringValue == "host" { return .host }
        let reader = try ObjectReader(json, name: field, allowed: ["list"])
        let items = try reader.strings("list", maxCount: 1000, maxLength: 200)
        guard !items.isEmpty else { throw .invalidArgument("\(field) must be \"host\" or {\"list\": [at least one value]}") }
        return .list(items)
    }
}
