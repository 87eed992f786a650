// SPDX-License-Identifier: Apache-2.0
/// The ids to remove from the directory: `{"contacts": [...], "accounts": [...], "billPayees": [...], "bills": [...]}`.
public struct DirectoryRemoval: Equatable, Sendable {
    public let contacts: [String]
    public let accounts: [String]
    public let billPayees: [String]
    public let bills: [String]

    public init(contacts: [String] = [], accounts: [String] = [], billPayees: [String] = [], bills: [String] = []) {
        self.contacts = contacts
        self.accounts = accounts
        self.billPayees = billPayees
        self.bills = bills
    }

    /// Parses the JSON form; every list optional, at least one id in all.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "removal", allowed: ["contacts", "accounts", "billPayees", "bills"])
        self.init(
            contacts: try reader.strings("contacts", maxCount: 10_000, maxLength: 128),
            accounts: try reader.strings("accounts", maxCount: 10_000, maxLength: 128),
            billPayees: try reader.strings("billPayees", maxCount: 10_000, maxLength: 128),
            bills: try reader.strings("bills", maxCount: 10_000, maxLength: 128))
        guard !(contacts + accounts + billPayees + bills).isEmpty else { throw .invalidArgument("removal names no id") }
    }
}
