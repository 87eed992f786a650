// SPDX-License-Identifier: Apache-2.0
/// One of the person's own accounts: payments are drawn from it, transfers
/// move money between two of them, and search_for_accounts reports it.
public struct Account: Equatable, Sendable {
    public let id: String
    /// The person's name for it ("Safe-to-Spend", "NestEgg").
    public let nickname: String?
    /// The bank or company holding it.
    public let organizationName: String?
    public let type: AccountType
    public let balance: Money
    /// Loyalty balances, for the points and miles balance types.
    public let points: Int64?
    public let miles: Int64?
    /// The account drawn from for payments in its currency.
    public let isDefault: Bool

    public init(
        id: String, nickname: String?, organizationName: String? = nil, type: AccountType, balance: Money, points: Int64? = nil,
        miles: Int64? = nil, isDefault: Bool
    ) {
        self.id = id
        self.nickname = nickname
        self.organizationName = organizationName
        self.type = type
        self.balance = balance
        self.points = points
        self.miles = miles
        self.isDefault = isDefault
    }

    /// The full directory form, balances included.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let nickname { members.append(("nickname", .string(nickname))) }
        if let organizationName { members.append(("organizationName", .string(organizationName))) }
        members += [("type", .string(type.rawValue)), ("balance", balance.json)]
        if let points { members.append(("points", .number(String(points)))) }
        if let miles { members.append(("miles", .number(String(miles)))) }
        members.append(("default", .bool(isDefault)))
        return .object(members)
    }

    /// The short form a record or response names the account by.
    public var reference: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let nickname { members.append(("nickname", .string(nickname))) }
        members.append(("type", .string(type.rawValue)))
        return .object(members)
    }

    /// The name a person would say: the nickname, else the type.
    public var spokenName: String { nickname ?? type.rawValue }

    /// An account from its directory JSON form.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: field, allowed: ["id", "nickname", "organizationName", "type", "balance", "points", "miles", "default"])
        let type = try AccountType.parse(try reader.requiredString("type"), field: "\(field).type")
        guard let balanceJSON = reader["balance"] else { throw .invalidArgument("\(field).balance is required") }
        let balance = try Money(json: balanceJSON, field: "\(field).balance", allowZero: true)
        self.init(
            id: try reader.requiredString("id", maxLength: 128), nickname: try reader.string("nickname", maxLength: 200),
            organizationName: try reader.string("organizationName", maxLength: 200), type: type, balance: balance,
            points: try reader.count("points"), miles: try reader.count("miles"), isDefault: try reader.bool("default") ?? false)
    }
}
