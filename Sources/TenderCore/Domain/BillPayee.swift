// SPDX-License-Identifier: Apache-2.0
/// An organization the person pays bills to, under one of their accounts with
/// it: the seeds' Electric Company appears once per address, told apart by nickname.
public struct BillPayee: Equatable, Sendable {
    public let id: String
    public let organizationName: String
    /// How the person tells this account apart ("123 Main St").
    public let nickname: String?
    /// The person's account number with the organization.
    public let accountNumber: String?

    public init(id: String, organizationName: String, nickname: String?, accountNumber: String?) {
        self.id = id
        self.organizationName = organizationName
        self.nickname = nickname
        self.accountNumber = accountNumber
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id)), ("organizationName", .string(organizationName))]
        if let nickname { members.append(("nickname", .string(nickname))) }
        if let accountNumber { members.append(("accountNumber", .string(accountNumber))) }
        return .object(members)
    }

    /// The label of a disambiguation: the nickname, else the organization.
    public var label: String { nickname.map { "\(organizationName), \($0)" } ?? organizationName }

    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "organizationName", "nickname", "accountNumber"])
        self.init(
            id: try reader.requiredString("id", maxLength: 128), organizationName: try reader.requiredString("organizationName", maxLength: 200),
            nickname: try reader.string("nickname", maxLength: 200), accountNumber: try reader.string("accountNumber", maxLength: 64))
    }
}
