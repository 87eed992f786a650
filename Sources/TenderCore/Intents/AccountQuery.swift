// SPDX-License-Identifier: Apache-2.0
/// How the host named one of the person's accounts: by nickname (as said),
/// by type, by organization, or by id; any combination narrows the search.
public struct AccountQuery: Equatable, Sendable {
    public let nickname: String?
    public let type: AccountType?
    public let organizationName: String?
    public let id: String?

    public init(nickname: String? = nil, type: AccountType? = nil, organizationName: String? = nil, id: String? = nil) {
        self.nickname = nickname
        self.type = type
        self.organizationName = organizationName
        self.id = id
    }

    /// `{"nickname": "nest egg"}`, `{"type": "saving"}` or `{"id": "savings"}`; at least one member.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["nickname", "type", "organizationName", "id"])
        let type = try reader.string("type", maxLength: 40).map { (t) throws(TenderError) in try AccountType.parse(t, field: "\(field).type") }
        self.init(
            nickname: try reader.string("nickname", maxLength: 200), type: type,
            organizationName: try reader.string("organizationName", maxLength: 200), id: try reader.string("id", maxLength: 128))
        guard nickname != nil || type != nil || organizationName != nil || id != nil else {
            throw .invalidArgument("\(field) needs a nickname, type, organizationName or id")
        }
    }
}
