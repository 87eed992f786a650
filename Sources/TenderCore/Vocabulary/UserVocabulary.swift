// SPDX-License-Identifier: Apache-2.0
/// The user-specific terms of one kind, like SiriKit's `INVocabulary` set:
/// an ordered set of items by id, replaced as a whole.
public struct UserVocabulary: Equatable, Sendable {
    public let kind: VocabularyKind
    /// In the caller's order of importance; ids unique.
    public let items: [VocabularyItem]

    /// Keeps the first item of each id; later items with an id already present are dropped.
    public init(kind: VocabularyKind, items: [VocabularyItem]) {
        var seen = Set<String>()
        self.kind = kind
        self.items = items.filter { seen.insert($0.id).inserted }
    }

    /// Parses `{"kind": "contactName", "items": [...]}`, at most 1000 items; the first item of
    /// each id wins. Throws ``TenderError/invalidArgument(_:)`` for a missing or unknown kind,
    /// missing items, too many items, or an invalid item.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "vocabulary", allowed: ["kind", "items"])
        let kindName = try reader.requiredString("kind", maxLength: 64)
        guard let kind = VocabularyKind(rawValue: kindName) else {
            let names = VocabularyKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidArgument("vocabulary.kind must be one of \(names)")
        }
        guard let values = try reader.array("items") else { throw .invalidArgument("vocabulary.items is required") }
        guard values.count <= 1000 else { throw .invalidArgument("vocabulary.items has more than 1000 items") }
        var items: [VocabularyItem] = []
        for (i, value) in values.enumerated() {
            items.append(try VocabularyItem(json: value, field: "items[\(i)]"))
        }
        self.init(kind: kind, items: items)
    }

    public var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("items", .array(items.map(\.json)))])
    }
}
