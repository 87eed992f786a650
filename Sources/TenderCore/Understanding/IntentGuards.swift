/// What each intent the model may choose must have said, at the least, so
/// that unrelated speech that only sounds like banking ("transfer the files
/// to my laptop", "the balance of power", "pay it forward") starts nothing.
enum IntentGuards {
    static let questionOpenings: Set<String> = ["did", "who", "why", "should", "does", "when", "where", "was", "were", "which"]
    static let statementOpenings: Set<String> = ["we", "you", "he", "she", "they", "paying", "ive"]
    /// "I hate paying bills", "I already paid", "I can pay you $20": what I did or do, not what I ask.
    static let statementVerbs: Set<String> = [
        "hate", "love", "like", "forgot", "paid", "sent", "moved", "transferred", "lost", "used", "usually", "always", "already", "never",
        "can", "could", "would", "d", "saved", "m", "am", "was", "think", "spent", "owe", "send", "pay", "transfer", "move", "give",
    ]
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
        // Nothing that moves money starts from a negation ("don't transfer …"), a question about it ("did I pay
        // the electric bill", "how do I transfer money abroad") or a statement ("I hate paying bills", "you pay Tim $20").
        if ["transfer_money", "pay_bill"].contains(intent) {
            if EnglishRules.isNegated(u.words) { return false }
            guard let first = Openings.verbIndex(u.words).map({ u.words[$0] }) else { return false }
            if questionOpenings.contains(first) || statementOpenings.contains(first) { return false }
            // "how do I transfer money abroad": asking how, not asking for it.
            if SlotFiller.contains(Array(u.words.prefix(3)), ["how", "do"]) { return false }
            if first == "i", let at = Openings.verbIndex(u.words), at + 1 < u.words.count, statementVerbs.contains(u.words[at + 1]) { return false }
        }
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
