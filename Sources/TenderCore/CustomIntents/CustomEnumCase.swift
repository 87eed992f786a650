// SPDX-License-Identifier: Apache-2.0
/// One case of an enum parameter: its name (the value the handler gets) and the words that also choose it.
public struct CustomEnumCase: Equatable, Sendable {
    public let name: String
    public let synonyms: [String]

    init(json: JSONValue, field: String) throws(TenderError) {
        if let name = json.stringValue {
            guard !name.isEmpty, name.count <= 100 else { throw .invalidArgument("\(field) must be a name of 1 to 100 characters") }
            self.name = name
            synonyms = []
            return
        }
        let reader = try ObjectReader(json, name: field, allowed: ["name", "synonyms"])
        name = try reader.requiredString("name", maxLength: 100)
        synonyms = try reader.strings("synonyms", maxCount: 50, maxLength: 100)
    }
}
