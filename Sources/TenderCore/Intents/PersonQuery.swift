// SPDX-License-Identifier: Apache-2.0
/// How the host named a person (a payee or payer): by name to match, with the
/// recogniser's other hearings and the host's own candidate ids (SiriKit's
/// siriMatches), or by contact id; with an optional handle (a label such as
/// "mobile", or a handle id).
public struct PersonQuery: Equatable, Sendable {
    public let name: String?
    /// Other transcriptions of the name (an n-best list), all considered.
    public let alternatives: [String]
    /// Contact ids the host already found for the name, all considered.
    public let matches: [String]
    public let contactID: String?
    public let handle: String?

    public init(name: String?, alternatives: [String] = [], matches: [String] = [], contactID: String?, handle: String?) {
        self.name = name
        self.alternatives = alternatives
        self.matches = matches
        self.contactID = contactID
        self.handle = handle
    }

    /// A query from `{"name": "John", "alternatives": ["Jon"], "matches": ["john-baily"]}` or `{"id": "john-baily", "handle": "mobile"}`.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["name", "alternatives", "matches", "id", "handle"])
        let name = try reader.string("name", maxLength: 200)
        let id = try reader.string("id", maxLength: 128)
        guard (name == nil) != (id == nil) else { throw .invalidArgument("\(field) needs exactly one of name or id") }
        guard name?.contains(where: { !$0.isWhitespace }) ?? true else { throw .invalidArgument("\(field).name is blank") }
        let alternatives = try reader.strings("alternatives", maxCount: 10, maxLength: 200)
        let matches = try reader.strings("matches", maxCount: 20, maxLength: 128)
        guard id == nil || (alternatives.isEmpty && matches.isEmpty) else {
            throw .invalidArgument("\(field): alternatives and matches go with a name, not an id")
        }
        self.init(name: name, alternatives: alternatives, matches: matches, contactID: id, handle: try reader.string("handle", maxLength: 128))
    }
}
