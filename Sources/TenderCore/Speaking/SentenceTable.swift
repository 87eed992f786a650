// SPDX-License-Identifier: Apache-2.0
/// One language's sentences: every question, refusal, confirmation and outcome Tender says to
/// the person. Values come in already written the language's way (amounts, days, names);
/// no sentence holds a parameter name, an id, a reason code or JSON. A new kind of sentence
/// (another question, another intent's confirmation) is a new requirement here, met by every table.
protocol SentenceTable: Sendable {
    /// "A, B or C" (`or`) / "A, B and C".
    func list(_ items: [String], or: Bool) -> String

    // MARK: questions about a parameter

    /// Several candidates: "Which person: John Appleseed or John Baily?".
    func which(_ subject: SpokenSubject, _ options: String) -> String
    /// One likely value: "Did you mean Jon Bailey?".
    func didYouMean(_ value: String) -> String
    /// The most recent payee, suggested when no one was named: "Pay John Baily again?".
    func payAgain(_ name: String) -> String
    /// A bill's amount due, suggested: "Pay the amount due, $84.20?".
    func payAmountDue(_ amount: String) -> String
    /// A missing value: "Who should I pay?".
    func needs(_ subject: SpokenSubject) -> String
    /// Why a value cannot be used; `said` the value as said, `limit` the limit an amount broke.
    func refused(_ subject: SpokenSubject, _ reason: UnsupportedReason?, said: String?, limit: String?) -> String
    /// What the person may say instead: "You could say Checking or Savings.".
    func youCouldSay(_ options: String) -> String

    // MARK: the question before money moves

    func confirmSend(amount: String, to payee: String, from account: String?) -> String
    func confirmRequest(amount: String, from payer: String, into account: String?) -> String
    func confirmPayBill(amount: String, to payee: String, from account: String?, on day: String?) -> String
    func confirmTransfer(amount: String, from: String?, to: String, on day: String?) -> String
    /// A custom intent's confirmation from its own title, already in words ("Round up savings by $5"),
    /// for an intent that moves no money.
    func confirmTitle(_ title: String) -> String
    /// The question before a custom intent moves money, in Tender's words whatever its definition says:
    /// the amount, who is paid (nil when the intent names no one) and the account ("Move $50 to John Appleseed from Checking?").
    func confirmMove(amount: String, to payee: String?, from account: String?) -> String
    /// The question a transfer that names nobody starts with (``DestinationQuestion``): "To someone else, or between your own accounts?".
    func destinationQuestion() -> String
    /// The words for one of its options, named by the intent it chooses (`send_payment`, `transfer_money`).
    func destinationOption(_ intent: String) -> String
    /// Added to a confirmation when there is a fee: "The fee is $0.50.".
    func fee(_ amount: String) -> String

    // MARK: outcomes

    func sent(amount: String, to payee: String) -> String
    func requested(amount: String, from payer: String) -> String
    func paidBill(amount: String, to payee: String, on day: String?) -> String
    func transferred(amount: String, from: String?, to: String, on day: String?) -> String
    /// A search's result: how many bills, accounts or payments were found.
    func found(_ count: Int, of kind: SearchKind) -> String
    /// One account's balance, for a list: "Checking has $1,000".
    func balance(of account: String, _ amount: String) -> String
    /// One bill, for a list: "Electric Company: $84.20 due November 30".
    func bill(to payee: String, _ amount: String, due day: String) -> String
    /// A failure code at confirm or handle: nothing was paid.
    func failed(_ code: ResponseCode, account: String?) -> String
    /// The person was not authenticated: nothing was paid.
    func notAuthenticated(_ denial: AuthenticationDenial) -> String
    /// The person said no to the confirmation question.
    func declined() -> String
    /// The person ended the dialog ("cancel", "never mind").
    func cancelled() -> String
    /// A request that is not one Tender handles.
    func outOfScope() -> String
    /// A reply that fit no answer; `hint` says what may be said.
    func notUnderstood(_ hint: String) -> String
    /// The hint for a yes/no question: "Say yes or no, or cancel.".
    func sayYesOrNo() -> String
    /// The hint for a choice: "Say a number from 1 to 3, or a name, or cancel.".
    func sayNumberOrName(_ count: Int) -> String
    /// The hint for a value: "Say it another way, or cancel.".
    func sayAValue() -> String

    // MARK: words

    /// A handle's label as said ("mobile" → "móvil").
    func handleLabel(_ label: String) -> String
    /// An enum case as said ("carLoan" → "car loan").
    func caseName(_ name: String) -> String
    /// The last item of a list cut short: "another one".
    var another: String { get }
}

/// What a search looked for.
enum SearchKind: Sendable {
    case bills, accounts, payments
}

extension SentenceTable {
    /// `items` as a list that fits in `budget` characters: all of them, else the first ones and "another one".
    func options(_ items: [String], budget: Int, or: Bool = true) -> String {
        let all = list(items, or: or)
        guard all.count > budget, items.count > 1 else { return all }
        for count in stride(from: items.count - 1, through: 1, by: -1) {
            let text = list(Array(items.prefix(count)) + [another], or: or)
            if text.count <= budget { return text }
        }
        return another
    }
}
