// SPDX-License-Identifier: Apache-2.0
/// A whole directory as JSON carries it: contacts with handles, accounts with
/// balances, bill payees and their bills.
public struct DirectoryDocument: Equatable, Sendable {
    public var contacts: [Contact]
    public var accounts: [Account]
    public var billPayees: [BillPayee]
    public var bills: [Bill]

    public init(contacts: [Contact], accounts: [Account], billPayees: [BillPayee] = [], bills: [Bill] = []) {
        self.contacts = contacts
        self.accounts = accounts
        self.billPayees = billPayees
        self.bills = bills
    }

    /// Parses and validates `{"contacts", "accounts", "billPayees", "bills"}` (each optional): ids unique within each list.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "directory", allowed: ["contacts", "accounts", "billPayees", "bills"])
        self.init(
            contacts: try Self.list(reader, "contacts", Contact.init(json:field:), id: \.id),
            accounts: try Self.list(reader, "accounts", Account.init(json:field:), id: \.id),
            billPayees: try Self.list(reader, "billPayees", BillPayee.init(json:field:), id: \.id),
            bills: try Self.list(reader, "bills", Bill.init(json:field:), id: \.id))
    }

    private static func list<T>(
        _ reader: ObjectReader, _ key: String, _ parse: (JSONValue, String) throws(TenderError) -> T, id: (T) -> String
    ) throws(TenderError) -> [T] {
        var items: [T] = []
        var seen = Set<String>()
        for (i, json) in (try reader.array(key) ?? []).enumerated() {
            let item = try parse(json, "\(key)[\(i)]")
            guard seen.insert(id(item)).inserted else { throw .invalidArgument("\(key)[\(i)].id is used twice") }
            items.append(item)
        }
        return items
    }

    public var json: JSONValue {
        .object([
            ("contacts", .array(contacts.map(\.json))), ("accounts", .array(accounts.map(\.json))),
            ("billPayees", .array(billPayees.map(\.json))), ("bills", .array(bills.map(\.json))),
        ])
    }
}
