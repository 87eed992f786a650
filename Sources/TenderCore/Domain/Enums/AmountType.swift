// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INAmountType: which of a bill's or account's amounts is meant.
public enum AmountType: String, NamedValue {
    case unknown, minimumDue, amountDue, currentBalance, maximumTransferAmount, minimumTransferAmount, statementBalance
    public static let kindName = "amount type"
}
