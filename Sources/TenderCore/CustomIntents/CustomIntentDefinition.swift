// SPDX-License-Identifier: Apache-2.0
/// One custom intent, declared in a definition document (docs/custom-intents.md):
/// its parameters, shortcut types, responses, restriction and examples. Immutable once
/// loaded: a definition that cannot work is refused when it is read, never later.
public struct CustomIntentDefinition: Equatable, Sendable {
    public let name: String
    public let title: String
    public let description: String
    public let category: CustomIntentCategory
    public let parameters: [CustomParameter]
    public let shortcutTypes: [CustomShortcutType]
    /// What the handler may return besides the parameters, for the response templates: name → type.
    public let outputs: [(name: String, type: CustomParameterType)]
    /// The response in the person's words for each code the handler may return.
    public let responses: [(code: String, template: MessageTemplate)]
    public let restriction: CustomIntentRestriction
    /// Whether handling writes a signed ledger entry: always for money movement, on request for information.
    public let recorded: Bool
    public let examples: [CustomIntentExample]

    /// The response codes every handler may return; `success` must have a template.
    public static let standardCodes = ["success", "failure", "failureRequiringAppLaunch", "inProgress"]

    public static func == (a: CustomIntentDefinition, b: CustomIntentDefinition) -> Bool {
        a.name == b.name && a.title == b.title && a.category == b.category && a.parameters == b.parameters
            && a.shortcutTypes == b.shortcutTypes && a.outputs.map(\.name) == b.outputs.map(\.name)
            && a.responses.map(\.code) == b.responses.map(\.code) && a.restriction == b.restriction && a.recorded == b.recorded
            && a.examples == b.examples
    }

    /// The parameter named `name`, or nil.
    public func parameter(_ name: String) -> CustomParameter? { parameters.first { $0.name == name } }

    /// Whether `name` can name an intent, a parameter or an output: a letter, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// Reads and checks one intent; `index` is its place in the document, for messages.
    init(json: JSONValue, index: Int) throws(TenderError) {
        let at = "intents[\(index)]"
        let reader = try ObjectReader(
            json, name: at,
            allowed: ["name", "title", "description", "category", "parameters", "shortcutTypes", "outputs", "responses", "restricted",
                      "recorded", "examples"])
        let name = try reader.requiredString("name", maxLength: 64)
        self.name = name
        guard Self.isIdentifier(name) else {
            throw .invalidArgument("\(at).name \"\(name)\" must start with a letter and hold only letters, digits and _")
        }
        let field = "intent \"\(name)\""
        title = try reader.string("title", maxLength: 200) ?? name
        description = try reader.string("description", maxLength: 1000) ?? ""
        let categoryName = try reader.requiredString("category", maxLength: 64)
        guard let category = CustomIntentCategory(rawValue: categoryName) else {
            throw .invalidArgument("\(field).category: unknown category \"\(categoryName)\"; it is information or moneyMovement")
        }
        self.category = category
        var parameters: [CustomParameter] = []
        for (i, item) in (try reader.array("parameters") ?? []).enumerated() {
            let parameter = try CustomParameter(json: item, field: "\(field), parameters[\(i)]")
            guard !parameters.contains(where: { $0.name == parameter.name }) else {
                throw .invalidArgument("\(field), parameters[\(i)]: the name \"\(parameter.name)\" is used twice")
            }
            parameters.append(parameter)
        }
        self.parameters = parameters
        outputs = try Self.outputs(reader["outputs"], field: "\(field).outputs", parameters: parameters)
        shortcutTypes = try Self.shortcutTypes(reader.array("shortcutTypes"), field: "\(field).shortcutTypes", parameters: parameters)
        responses = try Self.responses(reader["responses"], field: "\(field).responses")
        restriction = try CustomIntentRestriction(json: reader["restricted"], category: category, field: "\(field).restricted")
        let recordedFlag = try reader.bool("recorded")
        if category == .moneyMovement && recordedFlag == false {
            throw .invalidArgument("\(field).recorded: an intent that moves money always writes a signed ledger entry")
        }
        recorded = category == .moneyMovement || recordedFlag == true
        examples = try (reader.array("examples") ?? []).enumerated().map { (i, item) throws(TenderError) in
            try CustomIntentExample(json: item, field: "\(field).examples[\(i)]")
        }
        try check(field: field)
    }

    /// The rules that need the whole intent.
    private func check(field: String) throws(TenderError) {
        if category == .moneyMovement {
            guard parameters.contains(where: { $0.type == .currencyAmount && $0.required && !$0.list }) else {
                throw .invalidArgument("\(field) moves money but has no required, single currencyAmount parameter: nothing says how much")
            }
        }
        if case .rules(let limits, _) = restriction, !limits.isEmpty, !parameters.contains(where: { $0.type == .currencyAmount }) {
            throw .invalidArgument("\(field).restricted.aboveAmount needs a currencyAmount parameter to compare with")
        }
        if case .rules(_, true) = restriction, !parameters.contains(where: { $0.type == .person || $0.type == .billPayee }) {
            throw .invalidArgument("\(field).restricted.newPayee needs a person or billPayee parameter: the payee is who is paid, and this intent names none")
        }
        if !parameters.isEmpty {
            let all = Set(parameters.map(\.name))
            guard shortcutTypes.contains(where: { Set($0.parameters) == all }) else {
                throw .invalidArgument(
                    "\(field).shortcutTypes: no shortcut type uses every parameter (\(parameters.map(\.name).joined(separator: ", "))), "
                        + "so a shortcut could never reach the handler; add one that lists them all")
            }
        }
        guard responses.contains(where: { $0.code == "success" }) else {
            throw .invalidArgument("\(field).responses has no \"success\" template: the person would hear nothing when it works")
        }
        let known = Set(parameters.map(\.name) + outputs.map(\.name))
        for (code, template) in responses {
            for placeholder in template.placeholders where !known.contains(placeholder) {
                throw .invalidArgument("\(field).responses.\(code) names \"${\(placeholder)}\", which is neither a parameter nor an output")
            }
        }
        for (i, example) in examples.enumerated() {
            for span in example.spans where parameter(span.parameter) == nil {
                throw .invalidArgument("\(field).examples[\(i)] marks \"\(span.parameter)\", which is not a parameter")
            }
        }
    }

    private static func outputs(_ json: JSONValue?, field: String, parameters: [CustomParameter]) throws(TenderError) -> [(name: String, type: CustomParameterType)] {
        guard let json else { return [] }
        guard let members = json.objectMembers else { throw .invalidArgument("\(field) must be an object of names and types") }
        var result: [(name: String, type: CustomParameterType)] = []
        for member in members {
            guard isIdentifier(member.key) else { throw .invalidArgument("\(field): \"\(member.key)\" is not a name (a letter, then letters, digits, _)") }
            guard !parameters.contains(where: { $0.name == member.key }), !result.contains(where: { $0.name == member.key }) else {
                throw .invalidArgument("\(field): the name \"\(member.key)\" is used twice")
            }
            guard let typeName = member.value.stringValue, let type = CustomParameterType(rawValue: typeName), type != .enum else {
                throw .invalidArgument("\(field).\(member.key): unknown type; an output is one of \(CustomParameterType.names) but enum")
            }
            result.append((member.key, type))
        }
        return result
    }

    private static func shortcutTypes(_ items: [JSONValue]?, field: String, parameters: [CustomParameter]) throws(TenderError) -> [CustomShortcutType] {
        var result: [CustomShortcutType] = []
        for (i, item) in (items ?? []).enumerated() {
            let at = "\(field)[\(i)]"
            let reader = try ObjectReader(item, name: at, allowed: ["parameters", "title"])
            let names = try reader.strings("parameters", maxCount: 64, maxLength: 64)
            for name in names where !parameters.contains(where: { $0.name == name }) {
                throw .invalidArgument("\(at).parameters names \"\(name)\", which is not a parameter")
            }
            guard Set(names).count == names.count else { throw .invalidArgument("\(at).parameters names a parameter twice") }
            guard let titleJSON = reader["title"] else { throw .invalidArgument("\(at).title is required") }
            let title = try MessageTemplate(json: titleJSON, field: "\(at).title")
            for placeholder in title.placeholders where !names.contains(placeholder) {
                throw .invalidArgument("\(at).title names \"${\(placeholder)}\", which this shortcut type does not fill")
            }
            result.append(CustomShortcutType(parameters: names, title: title))
        }
        return result
    }

    private static func responses(_ json: JSONValue?, field: String) throws(TenderError) -> [(code: String, template: MessageTemplate)] {
        guard let json else { return [] }
        guard let members = json.objectMembers else { throw .invalidArgument("\(field) must be an object of response codes and templates") }
        var result: [(code: String, template: MessageTemplate)] = []
        for member in members {
            guard isIdentifier(member.key) else { throw .invalidArgument("\(field): \"\(member.key)\" is not a response code") }
            result.append((member.key, try MessageTemplate(json: member.value, field: "\(field).\(member.key)")))
        }
        return result
    }
}
