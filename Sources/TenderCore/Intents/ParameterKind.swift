// SPDX-License-Identifier: Apache-2.0
/// What a parameter of an intent holds, and so how its JSON is read and resolved.
public enum ParameterKind: String, Sendable {
    case person, billPayee, account, currencyAmount, transactionAmount, note, text, date, dateRange
    case billType, paymentStatus, accountType, balanceType
}
