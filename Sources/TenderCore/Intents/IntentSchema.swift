// SPDX-License-Identifier: Apache-2.0
/// One intent of the Payments domain: its name and its parameters in SiriKit's order.
public struct IntentSchema: Equatable, Sendable {
    public let name: String
    public let parameters: [(name: String, kind: ParameterKind)]
    /// Whether handling moves money (and so writes a signed record and is restricted by default).
    public let movesMoney: Bool
    /// The definition of a custom intent (docs/custom-intents.md); nil for the built-in intents.
    public let custom: CustomIntentDefinition?

    init(name: String, parameters: [(name: String, kind: ParameterKind)], movesMoney: Bool, custom: CustomIntentDefinition? = nil) {
        self.name = name
        self.parameters = parameters
        self.movesMoney = movesMoney
        self.custom = custom
    }

    public static func == (a: IntentSchema, b: IntentSchema) -> Bool { a.name == b.name }

    public static let sendPayment = IntentSchema(
        name: "send_payment", parameters: [("payee", .person), ("currencyAmount", .currencyAmount), ("note", .note)], movesMoney: true)
    public static let requestPayment = IntentSchema(
        name: "request_payment", parameters: [("payer", .person), ("currencyAmount", .currencyAmount), ("note", .note)], movesMoney: true)
    public static let payBill = IntentSchema(
        name: "pay_bill",
        parameters: [
            ("billPayee", .billPayee), ("fromAccount", .account), ("transactionAmount", .transactionAmount), ("transactionScheduledDate", .date),
            ("dueDate", .date), ("transactionNote", .note), ("billType", .billType),
        ], movesMoney: true)
    public static let searchForBills = IntentSchema(
        name: "search_for_bills",
        parameters: [
            ("billPayee", .billPayee), ("paymentDateRange", .dateRange), ("billType", .billType), ("status", .paymentStatus),
            ("dueDateRange", .dateRange),
        ], movesMoney: false)
    public static let transferMoney = IntentSchema(
        name: "transfer_money",
        parameters: [
            ("fromAccount", .account), ("toAccount", .account), ("transactionAmount", .transactionAmount),
            ("transactionScheduledDate", .date), ("transactionNote", .note),
        ], movesMoney: true)
    public static let searchForAccounts = IntentSchema(
        name: "search_for_accounts",
        parameters: [
            ("accountNickname", .text), ("accountType", .accountType), ("organizationName", .text), ("requestedBalanceType", .balanceType),
        ], movesMoney: false)
    public static let searchForPayments = IntentSchema(
        name: "search_for_payments", parameters: [("party", .person), ("dateRange", .dateRange), ("status", .paymentStatus)], movesMoney: false)

    /// Every intent Tender handles.
    public static let all = [sendPayment, requestPayment, payBill, searchForBills, transferMoney, searchForAccounts, searchForPayments]

    /// The intent named `name`, or nil.
    public static func named(_ name: String) -> IntentSchema? { all.first { $0.name == name } }

    /// The kind of parameter `name`, or nil when the intent has no such parameter.
    public func kind(of name: String) -> ParameterKind? { parameters.first { $0.name == name }?.kind }
}
