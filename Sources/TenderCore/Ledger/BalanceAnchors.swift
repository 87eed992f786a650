// SPDX-License-Identifier: Apache-2.0
/// The ledger entry that signs the balances the directory sets and the
/// accounts it removes (type `balances`). Being a chained entry, an older
/// balance cannot be put back in place of a newer one, nor an account removed,
/// without breaking the chain (or, for the ledger's last entries, a checkpoint).
public enum BalanceAnchors {
    /// The ledger entry type.
    public static let entryType = "balances"

    /// The payload setting each account of `set` (id, balance; the currency is the balance's)
    /// and removing each of `removed`; a member is left out when its list is empty.
    public static func payload(at position: LedgerPosition, set: [(account: String, balance: Money)], removed: [String]) -> String {
        var body: [(key: String, value: JSONValue)] = []
        if !set.isEmpty {
            body.append(("accounts", .array(set.map { item in
                .object([
                    ("account", .string(item.account)), ("currency", .string(item.balance.currency.code)),
                    ("balanceMinor", .number(String(item.balance.minorUnits))),
                ])
            })))
        }
        if !removed.isEmpty { body.append(("removed", .array(removed.map(JSONValue.string)))) }
        return position.payload(type: entryType, body: JSONWriter.members(body))
    }
}
