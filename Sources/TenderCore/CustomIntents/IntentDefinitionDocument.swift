// SPDX-License-Identifier: Apache-2.0
/// A definition document: `{"intents": [...]}` (docs/custom-intents.md). Reading it checks
/// everything that can be checked before use and refuses the whole document with one error
/// naming the intent, the field and the reason.
public struct IntentDefinitionDocument: Equatable, Sendable {
    public let intents: [CustomIntentDefinition]

    /// The most intents one document may declare.
    public static let maxIntents = 100

    /// Reads and checks a document. `taken` holds intent names already in use (other
    /// documents loaded before this one); the built-in intents' names are always taken.
    public init(json: JSONValue, taken: Set<String> = []) throws(TenderError) {
        let reader = try ObjectReader(json, name: "definition", allowed: ["intents"])
        guard let items = try reader.array("intents"), !items.isEmpty else {
            throw .invalidArgument("definition.intents must list at least one intent")
        }
        guard items.count <= Self.maxIntents else { throw .invalidArgument("definition.intents has more than \(Self.maxIntents) intents") }
        var names = taken
        var intents: [CustomIntentDefinition] = []
        for (i, item) in items.enumerated() {
            let intent = try CustomIntentDefinition(json: item, index: i)
            if IntentSchema.named(intent.name) != nil {
                throw .invalidArgument("intents[\(i)].name \"\(intent.name)\" is a built-in intent; choose another name")
            }
            guard names.insert(intent.name).inserted else {
                throw .invalidArgument("intents[\(i)].name \"\(intent.name)\" is already defined")
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
