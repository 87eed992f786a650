/// A phrase a person registered for a prefilled intent (the seeds' "Hey Siri,
/// coffee expense"): recognised before anything else, whatever it says.
public struct Shortcut: Equatable, Sendable {
    public let phrase: String
    /// The intent document it starts, as tender_session_new takes it.
    public let intent: JSONValue

    /// Checks the phrase (1 to 200 characters with a letter or digit) and the intent (a valid intent document).
    public init(phrase: String, intent: JSONValue) throws(TenderError) {
        guard phrase.count <= 200, !PhraseKey.compact(phrase).isEmpty else {
            throw .invalidArgument("a shortcut phrase needs 1 to 200 characters with a letter or digit")
        }
        _ = try Intent(json: intent)
        self.phrase = phrase
        self.intent = intent
    }

    /// `{"phrase": "coffee expense", "intent": {...}}`.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "shortcut", allowed: ["phrase", "intent"])
        guard let intent = reader["intent"] else { throw .invalidArgument("shortcut.intent is required") }
        try self.init(phrase: try reader.requiredString("phrase", maxLength: 200), intent: intent)
    }

    public var json: JSONValue { .object([("phrase", .string(phrase)), ("intent", intent)]) }
}
