// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// One seed scenario the demo plays: what the person asks, the intent a
/// host would make of it (nil: understood from the request's words), and the
/// person's replies at each question.
struct DemoScenario {
    let request: String
    let intent: String?
    /// What the person says at each question, in order.
    let replies: [String]

    static func all(today: LocalDate) -> [DemoScenario] {
        [
            DemoScenario(
                request: "Send $50 to John",
                intent: #"{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#,
                replies: ["John Baily", "mobile", "yes"]),
            DemoScenario(
                request: "Pay my Electric Company bill",
                intent: #"{"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}"#,
                replies: ["4 Lake Road", "yes", "yes"]),
            DemoScenario(
                request: "Transfer $200 from checking to savings",
                intent: #"{"intent": "transfer_money", "fromAccount": {"nickname": "checking"}, "toAccount": {"nickname": "savings"}, "transactionAmount": {"amount": {"amount": "200", "currency": "USD"}}}"#,
                replies: ["yes"]),
            DemoScenario(
                request: "What's my Safe-to-Spend?",
                intent: #"{"intent": "search_for_accounts", "accountNickname": "safe to spend"}"#, replies: []),
            DemoScenario(
                request: "What bills are due this month?",
                intent: #"{"intent": "search_for_bills", "status": "unpaid", "dueDateRange": {"start": "\#(today.firstDayOfMonth)", "end": "\#(today.lastDayOfMonth)"}}"#,
                replies: []),
            DemoScenario(
                request: "Show my payments to John Baily",
                intent: #"{"intent": "search_for_payments", "party": {"name": "John Baily"}}"#, replies: []),
        ]
    }

    /// The custom intents of examples/intents, understood from the words: the seed's Expense (the
    /// host supplies the expenses) and the restricted round-up (the amount confirmed, the person's yes, PAM).
    static let custom = [
        DemoScenario(request: "How much can I still spend on vacation?", intent: nil, replies: []),
        DemoScenario(request: "Round up by $5", intent: nil, replies: ["yes", "yes"]),
    ]
}
