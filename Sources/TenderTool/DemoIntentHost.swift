// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// The demo bank's side of its custom intents (examples/intents): it keeps the person's expenses
/// (money set aside, with what is left in each) and a round-up pot in its own books, as a bank
/// app keeps them in its service. Tender resolves, confirms, authenticates and records; this
/// host lists the expenses, answers what is left, and moves round-ups into its pot.
final class DemoIntentHost: CustomIntentHost {
    /// What is left in each expense, in cents.
    static let expenses: [(name: String, leftCents: Int64)] = [("vacation", 120_00), ("groceries", 85_50), ("coffee", 20_00), ("eating out", 64_25)]

    /// The round-ups moved so far, in cents.
    let pot = Mutex<Int64>(0)

    func values(intent: String, parameter: String) throws(TenderError) -> [String] {
        guard intent == "expense", parameter == "expense" else { throw .callback("the demo bank lists no values for \(intent).\(parameter)") }
        return Self.expenses.map(\.name)
    }

    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
        let parameters = request["parameters"]
        switch request["intent"]?.stringValue {
        case "expense":
            guard let name = parameters?["expense"]?.stringValue, let expense = Self.expenses.first(where: { $0.name == name }) else {
                return .object([("code", .string("failure"))])
            }
            return .object([("code", .string("success")), ("values", .object([("amountLeft", Self.dollars(expense.leftCents))]))])
        case "round_up_savings":
            guard let amount = parameters?["amount"], let money = try? Money(json: amount, field: "amount") else {
                return .object([("code", .string("failure"))])
            }
            pot.withLock { $0 += money.minorUnits }
            return .object([("code", .string("success"))])
        default:
            return .object([("code", .string("failure"))])
        }
    }

    private static func dollars(_ cents: Int64) -> JSONValue {
        let fraction = String(cents % 100)
        return .object([("amount", .string("\(cents / 100).\(fraction.count == 1 ? "0" : "")\(fraction)")), ("currency", .string("USD"))])
    }
}
