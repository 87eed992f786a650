// SPDX-License-Identifier: Apache-2.0
/// The question a dialog starts with when the words ask to move money but do
/// not say where it goes ("can you do a transfer for me"): to someone else
/// (send_payment) or between the person's own accounts (transfer_money). It
/// is a disambiguation of the pseudo-parameter `intent` with the prompt
/// `destination`, answered by choosing one of the two intents; the answer
/// turns the session's intent into the chosen one, keeping the amount and the
/// note. Only the understanding step asks for it (the intent document's
/// `askDestination`). Pure.
public enum DestinationQuestion {
    /// The intent document's member that asks the question.
    public static let member = "askDestination"
    /// The parameter the question is about, and what an answer names.
    public static let parameter = "intent"
    /// The disambiguation's prompt.
    public static let prompt = "destination"
    /// The question in words (English; the sentence tables say it in the dialog's language).
    public static let message = EnglishSentences().destinationQuestion()
    /// The two intents it chooses between.
    public static let intents = [IntentSchema.sendPayment.name, IntentSchema.transferMoney.name]
    /// The options offered, in this order.
    public static let options = intents.map { ResolutionOption(id: $0, label: EnglishSentences().destinationOption($0)) }

    /// The question as a resolution.
    static var resolution: ParameterResolution {
        ParameterResolution(parameter: parameter, result: .disambiguation(prompt: prompt, options: options), message: message)
    }

    /// `intent` as the chosen intent (one of ``intents``): the amount and the note carried over, the question
    /// answered. Values the chosen intent has no place for (a transfer's date, for a send) are dropped.
    static func intent(_ intent: Intent, choosing name: String) -> Intent {
        let send = name == IntentSchema.sendPayment.name
        var values: [String: ParameterValue] = [:]
        if send {
            if let amount = intent.money("currencyAmount") ?? intent.transactionAmount("transactionAmount")?.amount {
                values["currencyAmount"] = .money(amount)
            }
            if let note = intent.values["note"] ?? intent.values["transactionNote"] { values["note"] = note }
        } else {
            if let amount = intent.transactionAmount("transactionAmount") {
                values["transactionAmount"] = .transactionAmount(amount)
            } else if let money = intent.money("currencyAmount") {
                values["transactionAmount"] = .transactionAmount(TransactionAmount(amountType: nil, amount: money))
            }
            if let note = intent.values["transactionNote"] ?? intent.values["note"] { values["transactionNote"] = note }
            for key in ["fromAccount", "toAccount", "transactionScheduledDate"] where intent.values[key] != nil { values[key] = intent.values[key] }
        }
        var chosen = Intent(
            schema: send ? IntentSchema.sendPayment : IntentSchema.transferMoney, values: values, idempotencyKey: intent.idempotencyKey,
            device: intent.device)
        chosen.language = intent.language
        return chosen
    }
}
