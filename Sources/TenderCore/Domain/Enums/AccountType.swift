// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INAccountType.
public enum AccountType: String, NamedValue {
    case unknown, checking, credit, debit, investment, mortgage, prepaid, saving
    public static let kindName = "account type"
    public static let aliases: [String: AccountType] = ["savings": .saving]

    /// The type named `text`; "savings" is accepted for saving.
    public static func parse(_ text: String, field: String) throws(TenderError) -> AccountType { try named(text, field: field) }
}
