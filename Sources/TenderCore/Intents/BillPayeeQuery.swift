// SPDX-License-Identifier: Apache-2.0
/// How the host named a bill payee: the organization (and its other hearings),
/// optionally the nickname of the person's account with it; or its id.
public struct BillPayeeQuery: Equatable, Sendable {
    public let name: String?
    public let alternatives: [String]
    public let nickname: String?
    public let id: String?

    public init(name: String?, alternatives: [String] = [], nickname: String? = nil, id: String? = nil) {
        self.name = name
        self.alternatives = alternatives
        self.nickname = nickname
        self.id = id
    }

    /// `{"name": "Electric Company", "nickname": "Main Street"}` or `{"id": "electric-main"}`.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["name", "alternatives", "nickname", "id"])
        let name = try reader.string("name", maxLength: 200)
        let id = try reader.string("id", maxLength: 128)
        guard (name == nil) != (id == nil) else { throw .invalidArgument("\(field) needs exactly one of name or id") }
        guard name?.contains(where: { $0.isLetter || $0.isNumber }) ?? true else { throw .invalidArgument("\(field).name is blank") }
        self.init(
            name: name, alternatives: try reader.strings("alternatives", maxCount: 10, maxLength: 200),
            nickname: try reader.string("nickname", maxLength: 200), id: id)
    }
}
