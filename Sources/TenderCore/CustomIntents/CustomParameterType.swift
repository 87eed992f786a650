// SPDX-License-Identifier: Apache-2.0
/// The kinds of value a custom intent's parameter can hold (`"type"` in a definition document).
public enum CustomParameterType: String, CaseIterable, Sendable {
    case string, integer, decimal, boolean, currencyAmount, date, dateRange
    /// Resolved against the directory's contacts.
    case person
    /// Resolved against the directory's accounts.
    case account
    /// Resolved against the directory's bill payees.
    case billPayee
    /// One of the parameter's declared cases, matched by name or synonym.
    case `enum`

    /// The names a definition may use, for error messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
