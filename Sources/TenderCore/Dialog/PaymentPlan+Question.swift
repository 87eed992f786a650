// SPDX-License-Identifier: Apache-2.0
/// The confirmation question of a payment, in the person's words.
extension PaymentPlan {
    /// "Send $20 to John Baily from Checking? There is no fee." — the amount,
    /// who is paid, the account and the fee, as the person is asked before
    /// handle (``DialogSession/agree(_:)``).
    var question: String {
        let money = Self.spoken(amount)
        let from = account.map { " from \($0.spokenName)" } ?? ""
        let when = detail("transactionScheduledDate")?.stringValue.map { " on \($0)" } ?? ""
        var sentence: String
        switch intent.name {
        case "send_payment": sentence = "Send \(money) to \(name("payee"))\(from)?"
        case "request_payment": sentence = "Request \(money) from \(name("payer"))\(account.map { " into \($0.spokenName)" } ?? "")?"
        case "pay_bill": sentence = "Pay \(money) to \(name("billPayee"))\(from)\(when)?"
        case "transfer_money": sentence = "Transfer \(money)\(from) to \(name("toAccount"))\(when)?"
        default: sentence = "\(intent.name) \(money)\(from)?"
        }
        if let fee, fee.minorUnits > 0 { return sentence + " The fee is \(Self.spoken(fee))." }
        return sentence + " There is no fee."
    }

    private func detail(_ key: String) -> JSONValue? { details.first { $0.key == key }?.value }

    /// A party or account as a person names it.
    private func name(_ key: String) -> String {
        guard let value = detail(key) else { return key }
        for member in ["displayName", "organizationName", "nickname", "type"] {
            if let text = value[member]?.stringValue { return text }
        }
        return value.stringValue ?? key
    }

    /// An amount as said: "$20", "$20.50", "€3"; other currencies by code, "5000 JPY".
    static func spoken(_ money: Money) -> String {
        var digits = money.decimalString
        if digits.contains("."), digits.hasSuffix(String(repeating: "0", count: money.currency.exponent)) {
            digits = String(digits.dropLast(money.currency.exponent + 1))
        }
        switch money.currency.code {
        case "USD": return "$" + digits
        case "EUR": return "€" + digits
        case "GBP": return "£" + digits
        default: return "\(digits) \(money.currency.code)"
        }
    }
}
