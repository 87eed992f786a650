// SPDX-License-Identifier: Apache-2.0
/// What handling a custom intent does: only tells the person something, or moves money.
/// A money-moving intent needs a currency amount, is restricted by default and always
/// writes a signed ledger entry.
public enum CustomIntentCategory: String, CaseIterable, Sendable {
    case information
    case moneyMovement
}
