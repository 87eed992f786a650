// SPDX-License-Identifier: Apache-2.0
/// One intent's resolve and confirm rules; the session around it keeps the
/// state, the answers, authentication and handling. Stateless.
protocol IntentDialog: Sendable {
    /// Resolves every parameter in the schema's order, asking through `context`.
    func resolve(_ context: inout DialogContext) throws(TenderError) -> [ParameterResolution]
    /// Decides the response once every parameter resolved (the session checks that first).
    func confirm(_ context: inout DialogContext) throws(TenderError) -> Confirmation
}

/// The dialog of each intent.
enum IntentDialogs {
    static func dialog(for schema: IntentSchema) -> any IntentDialog {
        if let custom = schema.custom { return CustomIntentDialog(definition: custom) }
        switch schema.name {
        case IntentSchema.sendPayment.name: return SendPaymentDialog()
        case IntentSchema.requestPayment.name: return RequestPaymentDialog()
        case IntentSchema.payBill.name: return PayBillDialog()
        case IntentSchema.searchForBills.name: return SearchForBillsDialog()
        case IntentSchema.transferMoney.name: return TransferMoneyDialog()
        case IntentSchema.searchForAccounts.name: return SearchForAccountsDialog()
        default: return SearchForPaymentsDialog()
        }
    }
}
