// SPDX-License-Identifier: Apache-2.0
/// The app-wide vocabulary of one intent parameter, e.g. "billType".
public struct ParameterVocabulary: Equatable, Sendable {
    public let parameter: String
    /// In the order matches are reported; ids unique.
    public let items: [AppVocabularyItem]

    public init(parameter: String, items: [AppVocabularyItem]) {
        self.parameter = parameter
        self.items = items
    }

    /// Parses `{"parameter": "billType", "items": [...]}`, at most 1000 items. Throws
    /// ``TenderError/invalidArgument(_:)`` naming `field` for an unknown member, a missing
    /// parameter or items, too many items, an item id used twice, or an invalid item.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["parameter", "items"])
        let parameter = try reader.requiredString("parameter", maxLength: 128)
        guard let values = try reader.array("items") else { throw .invalidArgument("\(field).items is required") }
        guard values.count <= 1000 else { throw .invalidArgument("\(field).items has more than 1000 items") }
        var items: [AppVocabularyItem] = []
        var ids = Set<String>()
        for (i, value) in values.enumerated() {
            let item = try AppVocabularyItem(json: value, field: "\(field).items[\(i)]")
            guard ids.insert(item.id).inserted else { throw .invalidArgument("\(field).items[\(i)].id is used twice") }
            items.append(item)
        }
        self.init(parameter: parameter, items: items)
    }

    public var json: JSONValue {
        .object([("parameter", .string(parameter)), ("items", .array(items.map(\.json)))])
    }
}
