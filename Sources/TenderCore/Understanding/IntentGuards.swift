/// What each intent the model may choose must have said, at the least, so
/// that unrelated speech that only sounds like banking ("transfer the files
/// to my laptop", "the balance of power", "pay it forward") starts nothing.
enum IntentGuards {
    static let firstPerson: Set<String> = ["my", "i", "me", "mine", "our", "we", "us", "im", "ive"]
    static let moneyWords: Set<String> = [
        "account", "accounts", "checking", "savings", "saving", "money", "funds", "cash", "dollars", "bucks", "bank", "deposit", "card",
        "credit", "debit", "zbank", "zmoney",
    ]
    static let amountQuestions: Set<String> = ["much", "balance", "left", "available", "have", "enough", "afford"]
    /// A bill kind alone ("the phone store") is not enough; a bill, its amount or its due date is.
    static let billWords: Set<String> = ["bill", "bills", "billing", "invoice", "due", "minimum", "balance", "statement", "payment", "owe"]
    static let historyWords: Set<String> = ["purchases", "transactions", "payments", "spent", "charges", "withdrawals", "bought", "activity", "deposits"]

    /// Whether the utterance says enough for `intent`.
    static func allows(_ intent: String, _ u: Utterance, _ finder: PhraseFinder, normalised: [String]) throws(TenderError) -> Bool {
        let said = Set(normalised)
        let personal = !said.isDisjoint(with: firstPerson)
        let money = !said.isDisjoint(with: moneyWords)
        // "Don't transfer …", "never pay …": nothing that moves money starts from a negation.
        if ["transfer_money", "pay_bill"].contains(intent), EnglishRules.isNegated(u.words) { return false }
        switch intent {
        case "transfer_money":
            // Money moved ("transfer $50", "move money to savings", "make a transfer"), not files or a call.
            if money || SlotFiller.contains(u.words, ["a", "transfer"]) { return true }
            return try !finder.accounts().isEmpty
        case "search_for_accounts":
            // One's own balance, or how much an account holds: not "the best savings accounts" or "the balance of power".
            if personal || (money && !said.isDisjoint(with: amountQuestions)) { return true }
            return try !finder.accounts().isEmpty
        case "pay_bill", "search_for_bills":
            if personal || money || !said.isDisjoint(with: billWords) { return true }
            return try finder.organization() != nil
        case "search_for_payments":
            if personal || !said.isDisjoint(with: historyWords) { return true }
            return try finder.person() != nil
        default:
            return true
        }
    }
}
