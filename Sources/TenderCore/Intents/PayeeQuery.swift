/// How the host named the payee: by name to match, or by contact id; with
/// an optional handle (a label such as "mobile", or a handle id).
public struct PayeeQuery: Equatable, Sendable {
    public let name: String?
    public let contactID: String?
    public let handle: String?

    public init(name: String?, contactID: String?, handle: String?) {
        self.name = name
        self.contactID = contactID
        self.handle = handle
    }

    /// A query from `{"name": "John"}` or `{"id": "john-baily", "handle": "mobile"}`.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["name", "id", "handle"])
        let name = try reader.string("name", maxLength: 200)
        let id = try reader.string("id", maxLength: 128)
        guard (name == nil) != (id == nil) else { throw .invalidArgument("\(field) needs exactly one of name or id") }
        guard name?.contains(where: { !$0.isWhitespace }) ?? true else { throw .invalidArgument("\(field).name is blank") }
        self.init(name: name, contactID: id, handle: try reader.string("handle", maxLength: 128))
    }
}
