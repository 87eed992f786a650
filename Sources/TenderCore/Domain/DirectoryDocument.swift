/// A whole directory as JSON carries it: contacts with handles, accounts with balances.
public struct DirectoryDocument: Equatable, Sendable {
    public var contacts: [Contact]
    public var accounts: [Account]

    public init(contacts: [Contact], accounts: [Account]) {
        self.contacts = contacts
        self.accounts = accounts
    }

    /// Parses and validates `{"contacts": [...], "accounts": [...]}`: ids unique within each list.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "directory", allowed: ["contacts", "accounts"])
        var contacts: [Contact] = []
        var contactIDs = Set<String>()
        for (i, item) in (try reader.array("contacts") ?? []).enumerated() {
            let contact = try Contact(json: item, field: "contacts[\(i)]")
            guard contactIDs.insert(contact.id).inserted else { throw .invalidArgument("contacts[\(i)].id is used twice") }
            contacts.append(contact)
        }
        var accounts: [Account] = []
        var accountIDs = Set<String>()
        for (i, item) in (try reader.array("accounts") ?? []).enumerated() {
            let account = try Account(json: item, field: "accounts[\(i)]")
            guard accountIDs.insert(account.id).inserted else { throw .invalidArgument("accounts[\(i)].id is used twice") }
            accounts.append(account)
        }
        self.init(contacts: contacts, accounts: accounts)
    }

    public var json: JSONValue {
        .object([("contacts", .array(contacts.map(\.json))), ("accounts", .array(accounts.map(\.json)))])
    }
}
