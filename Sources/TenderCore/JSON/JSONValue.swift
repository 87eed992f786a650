// SPDX-License-Identifier: Apache-2.0
/// A JSON document as Tender reads and writes it.
///
/// Numbers keep their source text so no amount ever passes through a
/// floating-point value; objects keep their key order so output is stable.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string value, or nil.
    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// The elements of an array value, or nil.
    public var arrayValue: [JSONValue]? {
        if case let .array(a) = self { return a }
        return nil
    }

    /// The value of a boolean, or nil.
    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    /// The members of an object value, or nil.
    public var objectMembers: [(key: String, value: JSONValue)]? {
        if case let .object(m) = self { return m }
        return nil
    }
}
