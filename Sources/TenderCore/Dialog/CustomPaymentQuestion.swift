// SPDX-License-Identifier: Apache-2.0
/// The question asked before a custom intent moves money, in Tender's words (never the
/// definition's, which could say anything): the amount, who is paid and the account, as the
/// built-in payments ask: "Move $50 to John Appleseed from Checking?". Pure; one place for the
/// sentence, so that it can move into a table of prompts by language.
enum CustomPaymentQuestion {
    /// The sentence for `amount` (in words, "$50"), `payee` (the person or bill payee paid, nil when
    /// the intent has no such parameter) and `account` (the account it comes from, nil when none).
    static func sentence(amount: String, payee: String?, account: String?) -> String {
        "Move \(amount)\(payee.map { " to \($0)" } ?? "")\(account.map { " from \($0)" } ?? "")?"
    }
}
