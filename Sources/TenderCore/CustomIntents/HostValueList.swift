// SPDX-License-Identifier: Apache-2.0
/// The values a host lists for a parameter whose definition says `"values": "host"`:
/// `{"values": ["vacation", "groceries"]}`, at most 1000 names of 1 to 200 characters.
public enum HostValueList {
    /// The names of `answer`; ``TenderError/callback(_:)`` for anything else.
    public static func names(_ answer: JSONValue) throws(TenderError) -> [String] {
        guard case let .array(items)? = answer["values"], items.count <= 1000 else {
            throw .callback("the host's values callback must answer {\"values\": [at most 1000 names]}")
        }
        var names: [String] = []
        for item in items {
            guard let name = item.stringValue, !name.isEmpty, name.count <= 200 else {
                throw .callback("the host's values callback answered a value that is not a name of 1 to 200 characters")
            }
            names.append(name)
        }
        return names
    }
}
