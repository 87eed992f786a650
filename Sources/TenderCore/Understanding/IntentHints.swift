/// Plain signals that settle what the model is unsure of, each narrow enough
/// never to turn unrelated speech into a payment: an imperative "pay … bill",
/// a question about a bill (a search, not a payment), a balance asked of an
/// account the directory knows, points or miles one has, the person's own
/// payment history asked for.
enum IntentHints {

    /// The intent the hints settle on, or nil to keep the model's decision.
    static func intent(_ u: Utterance, _ finder: PhraseFinder, model: String) throws(TenderError) -> String? {
        let words = u.words
        let firstVerb = Openings.verbIndex(words).map { words[$0] }
        if firstVerb == "pay", let at = words.firstIndex(of: "pay") {
            // What is paid is the verb's object: "pay (off) (the|my) bill / minimum / balance / <organization>".
            var object = at + 1
            while object < words.count, ["off", "the", "my", "our", "this", "that"].contains(words[object]) { object += 1 }
            let near = object..<min(words.count, object + 3)
            if near.contains(where: { ["bill", "bills", "minimum", "balance"].contains(words[$0]) }) { return "pay_bill" }
            // "pay the electric company ..."
            if object < words.count, Featurizer.billKinds.contains(words[object]) { return "pay_bill" }
            if let org = try finder.organization(), near.contains(org.range.lowerBound) { return "pay_bill" }
            // "pay $80 to the Electric Company": an amount is what is paid, the company whom.
            if u.amounts.contains(where: { $0.tokens.lowerBound == object }), let to = words.indices.first(where: { $0 > at && words[$0] == "to" }) {
                var target = to + 1
                while target < words.count, ["the", "my", "our"].contains(words[target]) { target += 1 }
                if target < words.count, Featurizer.billKinds.contains(words[target]) { return "pay_bill" }
                if let org = try finder.organization(), org.range.lowerBound == target { return "pay_bill" }
            }
        }
        // A question about paying a bill (when, what day, how much) asks about the bill; it pays nothing.
        let asksWhenOrHowMuch = u.has("when") || SlotFiller.contains(words, ["what", "day"]) || SlotFiller.contains(words, ["what", "date"])
            || SlotFiller.contains(words, ["how", "much"])
        if model == "pay_bill", asksWhenOrHowMuch, u.hasAny(["bill", "bills"]) { return "search_for_bills" }
        let asksBalance = u.has("balance") || SlotFiller.contains(words, ["how", "much"]) || SlotFiller.contains(words, ["how", "many"])
        if asksBalance || (words.first == "what" && u.has("my")), model == "out_of_scope", try !finder.accounts().isEmpty { return "search_for_accounts" }
        let asksLoyaltyBalance = u.has("balance") || (SlotFiller.contains(words, ["how", "many"]) && u.hasAny(["have", "my", "got"]))
        if asksLoyaltyBalance, u.hasAny(["miles", "points"]), !u.hasAny(["redeem", "earn", "get", "away", "far"]) {
            return "search_for_accounts"
        }
        let history: Set<String> = ["payments", "transactions", "purchases"]
        let listing = u.hasAny(["show", "list", "see", "view", "what", "which"]) || SlotFiller.contains(words, ["did", "i", "pay"])
        if listing, words.indices.contains(where: { $0 + 1 < words.count && words[$0] == "my" && history.contains(words[$0 + 1]) }) {
            return "search_for_payments"
        }
        if SlotFiller.contains(words, ["payment", "history"]) { return "search_for_payments" }
        return nil
    }
}
