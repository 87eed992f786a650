/// SiriKit's INAccountType.
public enum AccountType: String, NamedValue {
    case unknown, checking, credit, debit, investment, mortgage, prepaid, saving
    public static let kindName = "account type"

    /// The type named `text`; "savings" is accepted for saving.
    public static func parse(_ text: String, field: String) throws(TenderError) -> AccountType {
        text == "savings" ? .saving : try named(text, field: field)
    }
}
