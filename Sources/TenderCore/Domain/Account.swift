/// One of the person's own accounts, from which payments are drawn.
public struct Account: Equatable, Sendable {
    /// SiriKit's account types.
    public enum Kind: String, Sendable, CaseIterable {
        case checking, savings, credit, prepaid, investment, other
    }

    public let id: String
    public let nickname: String?
    public let kind: Kind
    public let balance: Money
    /// The account drawn from for payments in its currency.
    public let isDefault: Bool

    public init(id: String, nickname: String?, kind: Kind, balance: Money, isDefault: Bool) {
        self.id = id
        self.nickname = nickname
        self.kind = kind
        self.balance = balance
        self.isDefault = isDefault
    }

    /// The full directory form, balance included.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let nickname { members.append(("nickname", .string(nickname))) }
        members += [("type", .string(kind.rawValue)), ("balance", balance.json), ("default", .bool(isDefault))]
        return .object(members)
    }

    /// The short form a record or response names the account by.
    public var reference: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let nickname { members.append(("nickname", .string(nickname))) }
        return .object(members)
    }

    /// An account from its directory JSON form.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "nickname", "type", "balance", "default"])
        let kindName = try reader.requiredString("type")
        guard let kind = Kind(rawValue: kindName) else {
            throw .invalidArgument("\(field).type must be one of checking, savings, credit, prepaid, investment, other")
        }
        guard let balanceJSON = reader["balance"] else { throw .invalidArgument("\(field).balance is required") }
        let balance = try Money(json: balanceJSON, field: "\(field).balance", allowZero: true)
        self.init(
            id: try reader.requiredString("id", maxLength: 128), nickname: try reader.string("nickname", maxLength: 200),
            kind: kind, balance: balance, isDefault: try reader.bool("default") ?? false)
    }
}
