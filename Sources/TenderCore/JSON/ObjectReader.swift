// SPDX-License-Identifier: Apache-2.0
/// Reads a JSON object against a schema: refuses unknown members and wrong
/// types with ``TenderError/invalidArgument(_:)`` naming the field.
public struct ObjectReader {
    private let members: [(key: String, value: JSONValue)]
    /// The field path used in messages, e.g. "payee".
    public let name: String

    /// Wraps `value`, which must be an object whose keys are all in `allowed` (a literal list is searched in
    /// order: for the few members of an object that is cheaper than building a `Set` at every read).
    public init(_ value: JSONValue, name: String, allowed: some Collection<String>) throws(TenderError) {
        try self.init(value, name: name, allowing: { allowed.contains($0) })
    }

    /// Wraps `value`, which must be an object whose every key `isAllowed` accepts (called once a member).
    public init(_ value: JSONValue, name: String, allowing isAllowed: (String) -> Bool) throws(TenderError) {
        guard let members = value.objectMembers else { throw .invalidArgument("\(name) must be a JSON object") }
        for member in members where !isAllowed(member.key) {
            throw .invalidArgument("\(name) has an unknown member \"\(member.key.prefix(40))\"")
        }
        self.members = members
        self.name = name
    }

    /// The raw member, or nil when absent or null.
    public subscript(key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }

    /// A string member, or nil when absent.
    public func string(_ key: String, maxLength: Int = 500) throws(TenderError) -> String? {
        guard let value = self[key] else { return nil }
        guard let text = value.stringValue else { throw .invalidArgument("\(name).\(key) must be a string") }
        guard text.count <= maxLength else { throw .invalidArgument("\(name).\(key) is longer than \(maxLength) characters") }
        return text
    }

    /// A required, non-empty string member.
    public func requiredString(_ key: String, maxLength: Int = 500) throws(TenderError) -> String {
        guard let text = try string(key, maxLength: maxLength) else { throw .invalidArgument("\(name).\(key) is required") }
        guard !text.isEmpty else { throw .invalidArgument("\(name).\(key) must not be empty") }
        return text
    }

    /// A boolean member, or nil when absent.
    public func bool(_ key: String) throws(TenderError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard let b = value.boolValue else { throw .invalidArgument("\(name).\(key) must be true or false") }
        return b
    }

    /// An array member, or nil when absent.
    public func array(_ key: String) throws(TenderError) -> [JSONValue]? {
        guard let value = self[key] else { return nil }
        guard let a = value.arrayValue else { throw .invalidArgument("\(name).\(key) must be an array") }
        return a
    }
}

extension ObjectReader {
    /// A whole, non-negative JSON number below 10^15, or nil when absent.
    public func count(_ key: String) throws(TenderError) -> Int64? {
        guard let value = self[key] else { return nil }
        guard case let .number(text) = value, !text.isEmpty, text.count <= 15, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int64(text)
        else { throw .invalidArgument("\(name).\(key) must be a whole number from 0 to 10^15") }
        return number
    }
}

extension ObjectReader {
    /// An array of strings, empty when absent.
    public func strings(_ key: String, maxCount: Int, maxLength: Int) throws(TenderError) -> [String] {
        guard let items = try array(key) else { return [] }
        guard items.count <= maxCount else { throw .invalidArgument("\(name).\(key) has more than \(maxCount) items") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue, !text.isEmpty, text.count <= maxLength else {
                throw .invalidArgument("\(name).\(key) must hold strings of 1 to \(maxLength) characters")
            }
            texts.append(text)
        }
        return texts
    }
}
