// SPDX-License-Identifier: Apache-2.0
/// One user-specific term a person may say, like an `INVocabulary` string:
/// a main phrase with optional spoken-form pronunciation and alternatives.
public struct VocabularyItem: Equatable, Sendable {
    /// The caller's identifier for what the phrase names, e.g. a contact id.
    public let id: String
    public let phrase: String
    /// How the phrase sounds, spelt out, e.g. "shiv awn" for "Siobhan".
    public let pronunciation: String?
    /// Other ways a person says the phrase.
    public let alternatives: [String]

    public init(id: String, phrase: String, pronunciation: String?, alternatives: [String]) {
        self.id = id
        self.phrase = phrase
        self.pronunciation = pronunciation
        self.alternatives = alternatives
    }

    /// An item that is only a name to match (a contact's, an account's nickname), for sounds-alike lookups.
    init(id: String, name: String) { self.init(id: id, phrase: name, pronunciation: nil, alternatives: []) }

    /// An item from `{"id", "phrase", "pronunciation"?, "alternatives"?}`. Throws
    /// ``TenderError/invalidArgument(_:)`` naming `field` for an unknown member, an empty or
    /// over-long string, a phrase without a letter or digit, or more than 32 alternatives.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "phrase", "pronunciation", "alternatives"])
        let id = try reader.requiredString("id", maxLength: 128)
        let phrase = try Self.spokenPhrase(reader, "phrase")
        let pronunciation = try reader.string("pronunciation", maxLength: 200)
        self.init(
            id: id, phrase: phrase, pronunciation: pronunciation,
            alternatives: try Self.strings(reader, "alternatives", maxCount: 32, maxLength: 200))
    }

    /// The JSON form; an absent pronunciation and empty alternatives are left out.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id)), ("phrase", .string(phrase))]
        if let pronunciation { members.append(("pronunciation", .string(pronunciation))) }
        if !alternatives.isEmpty { members.append(("alternatives", .array(alternatives.map(JSONValue.string)))) }
        return .object(members)
    }

    /// Every form the item is matched by: phrase, alternatives, pronunciation.
    var phrases: [String] {
        [phrase] + alternatives + (pronunciation.map { [$0] } ?? [])
    }

    /// A required string member with at least one letter or digit, at most 200 characters.
    static func spokenPhrase(_ reader: ObjectReader, _ key: String) throws(TenderError) -> String {
        let text = try reader.requiredString(key, maxLength: 200)
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw .invalidArgument("\(reader.name).\(key) must contain a letter or digit")
        }
        return text
    }

    /// An optional array member of non-empty strings; empty when absent.
    static func strings(_ reader: ObjectReader, _ key: String, maxCount: Int, maxLength: Int) throws(TenderError) -> [String] {
        let values = try reader.array(key) ?? []
        guard values.count <= maxCount else {
            throw .invalidArgument("\(reader.name).\(key) has more than \(maxCount) entries")
        }
        var strings: [String] = []
        for (i, value) in values.enumerated() {
            guard let text = value.stringValue else { throw .invalidArgument("\(reader.name).\(key)[\(i)] must be a string") }
            guard !text.isEmpty else { throw .invalidArgument("\(reader.name).\(key)[\(i)] must not be empty") }
            guard text.count <= maxLength else {
                throw .invalidArgument("\(reader.name).\(key)[\(i)] is longer than \(maxLength) characters")
            }
            strings.append(text)
        }
        return strings
    }
}
