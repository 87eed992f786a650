// SPDX-License-Identifier: Apache-2.0
/// A definition document: `{"intents": [...]}` (docs/custom-intents.md). Reading it checks
/// everything that can be checked before use and refuses the whole document with one error
/// naming the intent, the field and the reason.
public struct IntentDefinitionDocument: Equatable, Sendable {
    public let intents: [CustomIntentDefinition]

    /// The most intents one document may declare.
    public static let maxIntents = 100
    /// The names no custom intent may take, in lower case: the built-in intents' and `out_of_scope`.
    /// A name equal to one of them but for case is refused too.
    public static let reservedNames = Set(IntentSchema.all.map { $0.name.lowercased() } + ["out_of_scope"])

    /// Reads and checks a document. `taken` holds intent names already in use (other
    /// documents loaded before this one); the built-in intents' names and `out_of_scope` are
    /// always taken. Names are compared without regard to case: "Send_Payment" is refused.
    public init(json: JSONValue, taken: Set<String> = []) throws(TenderError) {
        let reader = try ObjectReader(json, name: "definition", allowed: ["intents"])
        guard let items = try reader.array("intents"), !items.isEmpty else {
            throw .invalidArgument("definition.intents must list at least one intent")
        }
        guard items.count <= Self.maxIntents else { throw .invalidArgument("definition.intents has more than \(Self.maxIntents) intents") }
        var names = Set(taken.map { $0.lowercased() })
        var intents: [CustomIntentDefinition] = []
        for (i, item) in items.enumerated() {
            let intent = try CustomIntentDefinition(json: item, index: i)
            if IntentSchema.named(intent.name) != nil {
                throw .invalidArgument("intents[\(i)].name \"\(intent.name)\" is a built-in intent; choose another name")
            }
            if Self.reservedNames.contains(intent.name.lowercased()) {
                throw .invalidArgument(
                    "intents[\(i)].name \"\(intent.name)\" differs from a built-in intent's name (or out_of_scope) only by case; choose another name")
            }
            guard names.insert(intent.name.lowercased()).inserted else {
                throw .invalidArgument("intents[\(i)].name \"\(intent.name)\" is already defined (names are compared without case)")
            }
            intents.append(intent)
        }
        self.intents = intents
    }

    /// Reads a document from its text (UTF-8 JSON).
    public init(text: String, taken: Set<String> = []) throws(TenderError) {
        try self.init(json: try JSONParser.parse(text), taken: taken)
    }
}
