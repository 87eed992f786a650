// SPDX-License-Identifier: Apache-2.0
/// A phrase a person registered for a prefilled intent (the seeds' "Hey Siri,
/// coffee expense"): recognised before anything else, whatever it says.
public struct Shortcut: Equatable, Sendable {
    public let phrase: String
    /// The intent document it starts, as tender_session_new takes it.
    public let intent: JSONValue

    /// Checks the phrase (1 to 200 characters with a letter or digit) and the intent (a valid intent
    /// document of a built-in intent or one of `custom`'s).
    public init(phrase: String, intent: JSONValue, custom: CustomIntentCatalog? = nil) throws(TenderError) {
        try self.init(phrase: phrase, intent: intent, checking: { (json) throws(TenderError) in _ = try Intent(json: json, custom: custom) })
    }

    private init(phrase: String, intent: JSONValue, checking check: (JSONValue) throws(TenderError) -> Void) throws(TenderError) {
        guard phrase.count <= 200, !Utterance.shortcutKey(phrase).isEmpty else {
            throw .invalidArgument("a shortcut phrase needs 1 to 200 characters with a letter or digit besides the app's name")
        }
        try check(intent)
        // Every use is a new payment from the device at hand: a fixed key would replay the first record, a fixed device dodge the rule.
        guard intent["idempotencyKey"] == nil, intent["device"] == nil else {
            throw .invalidArgument("a shortcut's intent may not carry an idempotencyKey or a device")
        }
        self.phrase = phrase
        self.intent = intent
    }

    /// `{"phrase": "coffee expense", "intent": {...}}`.
    public init(json: JSONValue, custom: CustomIntentCatalog? = nil) throws(TenderError) {
        let reader = try ObjectReader(json, name: "shortcut", allowed: ["phrase", "intent"])
        guard let intent = reader["intent"] else { throw .invalidArgument("shortcut.intent is required") }
        try self.init(phrase: try reader.requiredString("phrase", maxLength: 200), intent: intent, custom: custom)
    }

    /// A shortcut as a store kept it: one of a built-in intent is checked again; one of a custom intent
    /// (checked when added, against definitions a store does not keep) only for its intent's name, and
    /// again when its session starts.
    public init(stored json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "shortcut", allowed: ["phrase", "intent"])
        guard let intent = reader["intent"] else { throw .invalidArgument("shortcut.intent is required") }
        try self.init(phrase: try reader.requiredString("phrase", maxLength: 200), intent: intent) { (json) throws(TenderError) in
            guard let name = json["intent"]?.stringValue, IntentSchema.named(name) == nil else { _ = try Intent(json: json); return }
            guard CustomIntentDefinition.isIdentifier(name), json.objectMembers != nil else { throw .invalidArgument("a stored shortcut names no intent") }
        }
    }

    /// What the phrase is matched and stored by: its words without the app's name, compacted.
    public var key: String { Self.key(of: phrase) }

    /// The key of any phrase, as ``key``.
    public static func key(of phrase: String) -> String { Utterance.shortcutKey(phrase) }

    public var json: JSONValue { .object([("phrase", .string(phrase)), ("intent", intent)]) }
}
