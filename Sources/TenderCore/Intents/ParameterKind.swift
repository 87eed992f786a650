// SPDX-License-Identifier: Apache-2.0
/// What a parameter of an intent holds, and so how its JSON is read and resolved.
public enum ParameterKind: String, Sendable {
    case person, billPayee, account, currencyAmount, transactionAmount, note, text, date, dateRange
    case billType, paymentStatus, accountType, balanceType
    /// A custom intent's whole number, decimal (kept as its decimal text, never floating point),
    /// yes/no, and enum case (matched against the definition's cases in resolve).
    case integer, decimal, boolean, choice
}
