// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The PostgreSQL suites' payment: $1 from `checking` to Tim Cook under `key`, its record in format 1 (the signed copy
/// of the columns the store keeps beside it, which verify checks them against), as the SQLite store's tests write it.
func dollarPayment(_ key: String) throws -> PaymentSubmission {
    let money = try Money(decimal: "1.00", currency: try Currency(code: "USD"))
    let movements = [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)]
    let effects = PaymentEffects(movements: movements, onCompletion: [], bill: nil)
    let columns: JSONValue = .object([
        ("idempotencyKey", .string(key)), ("fingerprint", .string("fp")), ("account", .string("checking")),
        ("payeeContact", .string("tim-cook")), ("payeeHandle", .string("tc-work")), ("currency", .string("USD")),
        ("amountMinor", .number(String(money.minorUnits))), ("effects", effects.json),
    ])
    return PaymentSubmission(
        idempotencyKey: key, fingerprint: "fp", amount: money, movements: movements, payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
    ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("ledger", columns)])) }
}
