// SPDX-License-Identifier: Apache-2.0
/// One way to reach a person: a phone number, an email address or a payment account.
public struct Handle: Equatable, Sendable {
    /// The kinds of handle Tender knows.
    public enum Kind: String, Sendable, CaseIterable {
        case phone, email, account
    }

    public let id: String
    /// The label a person says: "home", "mobile", "work".
    public let label: String
    public let kind: Kind
    public let value: String

    public init(id: String, label: String, kind: Kind, value: String) {
        self.id = id
        self.label = label
        self.kind = kind
        self.value = value
    }

    /// Where a payment to this handle goes, as the `newPayee` rule and the reuse window key it:
    /// its kind and value ("phone:+1 408 555 0102"), never the contact's or the handle's id, so a
    /// directory edit that points a paid contact's handle elsewhere makes a payee never paid.
    public var paymentAddress: String { kind.rawValue + ":" + value }

    public var json: JSONValue {
        .object([("id", .string(id)), ("label", .string(label)), ("type", .string(kind.rawValue)), ("value", .string(value))])
    }

    /// A handle from its directory JSON form.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "label", "type", "value"])
        let kindName = try reader.requiredString("type")
        guard let kind = Kind(rawValue: kindName) else {
            throw .invalidArgument("\(field).type must be one of phone, email, account")
        }
        self.init(
            id: try reader.requiredString("id", maxLength: 128), label: try reader.requiredString("label", maxLength: 64),
            kind: kind, value: try reader.requiredString("value", maxLength: 256))
    }
}
