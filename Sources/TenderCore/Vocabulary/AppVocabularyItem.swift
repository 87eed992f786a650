// SPDX-License-Identifier: Apache-2.0
/// One value of an intent parameter every user of the app may say, like an
/// `AppIntentVocabulary` parameter item: an id and the synonyms that name it.
public struct AppVocabularyItem: Equatable, Sendable {
    /// A spoken name for an item, with an optional pronunciation.
    public struct Synonym: Equatable, Sendable {
        public let phrase: String
        /// How the phrase sounds, spelt out.
        public let pronunciation: String?

        public init(phrase: String, pronunciation: String?) {
            self.phrase = phrase
            self.pronunciation = pronunciation
        }

        /// A synonym from `{"phrase", "pronunciation"?}`. Throws ``TenderError/invalidArgument(_:)``
        /// naming `field` for an unknown member, an over-long string or a phrase without a letter or digit.
        public init(json: JSONValue, field: String) throws(TenderError) {
            let reader = try ObjectReader(json, name: field, allowed: ["phrase", "pronunciation"])
            self.init(
                phrase: try VocabularyItem.spokenPhrase(reader, "phrase"),
                pronunciation: try reader.string("pronunciation", maxLength: 200))
        }

        /// The JSON form; an absent pronunciation is left out.
        public var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [("phrase", .string(phrase))]
            if let pronunciation { members.append(("pronunciation", .string(pronunciation))) }
            return .object(members)
        }
    }

    /// The parameter value, e.g. "electricity"; also matched as a phrase.
    public let id: String
    public let synonyms: [Synonym]
    /// Sample requests using the item, e.g. "pay my power bill".
    public let examples: [String]

    public init(id: String, synonyms: [Synonym], examples: [String]) {
        self.id = id
        self.synonyms = synonyms
        self.examples = examples
    }

    /// An item from `{"id", "synonyms"?, "examples"?}`, at most 32 synonyms and 32 examples.
    /// Throws ``TenderError/invalidArgument(_:)`` naming `field` for an unknown member or an invalid value.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "synonyms", "examples"])
        let id = try reader.requiredString("id", maxLength: 128)
        let values = try reader.array("synonyms") ?? []
        guard values.count <= 32 else { throw .invalidArgument("\(field).synonyms has more than 32 entries") }
        var synonyms: [Synonym] = []
        for (i, value) in values.enumerated() {
            synonyms.append(try Synonym(json: value, field: "\(field).synonyms[\(i)]"))
        }
        self.init(
            id: id, synonyms: synonyms,
            examples: try VocabularyItem.strings(reader, "examples", maxCount: 32, maxLength: 200))
    }

    /// The JSON form; empty synonyms and examples are left out.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if !synonyms.isEmpty { members.append(("synonyms", .array(synonyms.map(\.json)))) }
        if !examples.isEmpty { members.append(("examples", .array(examples.map(JSONValue.string)))) }
        return .object(members)
    }

    /// Every form the item is matched by: its id, then each synonym's phrase and pronunciation.
    var phrases: [String] {
        [id] + synonyms.flatMap { [$0.phrase] + ($0.pronunciation.map { [$0] } ?? []) }
    }
}
