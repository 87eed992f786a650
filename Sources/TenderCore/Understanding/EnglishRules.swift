/// Sending and requesting money, which the trained model has no labels for:
/// a send or request verb, an amount and a person, all three, or nothing.
/// Everything else is the model's to decide.
enum EnglishRules {
    static let sendVerbs: Set<String> = ["send", "pay", "give", "venmo", "zelle", "wire", "transfer", "paypal"]
    static let requestVerbs: Set<String> = ["request", "charge", "collect", "invoice"]
    /// Words that end a name said after "to", "from" or a verb.
    static let stops: Set<String> = [
        "for", "on", "with", "from", "by", "to", "tomorrow", "today", "tonight", "my", "the", "a", "an", "and", "using", "via", "at", "in",
        "please", "now", "bill", "back", "me", "some", "money", "cash", "this", "next", "every", "each", "s", "account", "accounts",
    ]
    /// Words that make a phrase a bill or an account, not a person.
    static let notPeople: Set<String> = Set([
        "bill", "bills", "account", "accounts", "checking", "savings", "saving", "card", "company", "loan", "rent", "mortgage", "utility",
        "utilities", "electric", "water", "phone", "cable", "internet", "insurance", "bank", "it", "them", "him", "her", "myself", "you",
        "everyone", "someone",
    ]).union(Featurizer.billKinds)

    /// send_payment or request_payment when the utterance orders a verb, then
    /// an amount and a person; nil otherwise. A person the directory knows may
    /// come with a bare number ("pay John 20"); anyone else needs a currency
    /// said, and must be named after "to" (send) or "from" (request), or
    /// between the verb and the amount ("pay Sam $20"). Never for a question,
    /// a bill, or the person's own accounts (a transfer). Without any amount
    /// only "send money to Sam", which the dialog then asks the amount of.
    static func sendOrRequest(_ u: Utterance, _ finder: PhraseFinder) throws(TenderError) -> JSONValue? {
        let words = u.words
        // An order: the verb comes first (after "please", "can you", "I want to", ...); not a question, a
        // statement ("I sent", "my boss won't give"), a negation ("don't send") or a bill ("pay John's electric bill").
        // A bill is what is paid, unless it is only what a note says the money is for ("pay Tim $20 for the electric bill").
        let forNote = words.lastIndex(of: "for") ?? words.count
        guard let verb = Openings.verbIndex(words), !isNegated(words), !words[..<forNote].contains(where: { $0 == "bill" || $0 == "bills" }) else {
            return nil
        }
        let asking = requestVerbs.contains(words[verb]) || (words[verb] == "ask" && u.has("for"))
        guard asking || sendVerbs.contains(words[verb]) else { return nil }
        // Money between the person's own accounts ("from savings to checking") is a transfer, whatever the verb.
        guard asking || !u.has("from"), try finder.accounts().isEmpty else { return nil }
        let first = u.amounts.first(where: \.explicit) ?? u.amounts.first
        if let first, first.tokens.lowerBound < verb { return nil }
        var name: String?
        if let person = try finder.person(), person.range.lowerBound > verb {
            // A bare number counts only as the amount itself ("pay John 20", "pay John 20 for lunch"), not "5 minutes" or "at 5".
            if let first, !first.explicit, !bareNumberIsTheAmount(first, words) { return nil }
            name = person.name
        } else if first?.explicit ?? true {
            name = candidate(u, after: asking ? ["from"] : ["to"], from: verb)
                ?? first.flatMap { candidate(u, before: $0.tokens.lowerBound, verbs: asking ? requestVerbs.union(["ask"]) : sendVerbs) }
        }
        // Without an amount, only "send money to Sam": a money word says what is sent.
        guard let name, first != nil || (!asking && u.hasAny(["money", "cash", "funds", "payment"]) && words[verb] != "transfer") else { return nil }
        var members: [(key: String, value: JSONValue)] = [
            ("intent", .string(asking ? "request_payment" : "send_payment")), (asking ? "payer" : "payee", .object([("name", .string(name))])),
        ]
        if let first { members.append(("currencyAmount", first.money.json)) }
        if let note = note(u) { members.append(("note", .string(note))) }
        return .object(members)
    }

    /// Whether the words deny the order: never, not, don't, won't, can't, ...
    static func isNegated(_ words: [String]) -> Bool {
        let contracted: Set<String> = ["don", "won", "can", "didn", "shouldn", "wouldn", "couldn", "doesn", "isn", "mustn"]
        if words.contains(where: { ["never", "not", "dont", "wont", "cant", "didnt", "no", "nunca"].contains($0) }) { return true }
        return zip(words, words.dropFirst()).contains { contracted.contains($0.0) && $0.1 == "t" }
    }

    /// Whether a bare number is the amount: followed by nothing or by "to", "for", "please", "now", a day, and not after "at" or "for".
    static func bareNumberIsTheAmount(_ amount: AmountExtractor.Found, _ words: [String]) -> Bool {
        let next = amount.tokens.upperBound < words.count ? words[amount.tokens.upperBound] : nil
        let previous = amount.tokens.lowerBound > 0 ? words[amount.tokens.lowerBound - 1] : nil
        let followers = Set(["to", "for", "please", "now", "today", "tomorrow", "with", "on", "next", "this"] + DateExtractor.weekdays)
        return (next.map(followers.contains) ?? true) && !["at", "for", "by", "in", "about", "around", "every"].contains(previous ?? "")
    }

    static let questionWords: Set<String> = ["how", "what", "when", "did", "why", "was", "were", "which", "who", "do", "does", "is", "where"]
    /// People said by relation ("to my mom"): the word stands for the person.
    static let relations: Set<String> = [
        "mom", "mum", "mother", "dad", "father", "brother", "sister", "wife", "husband", "son", "daughter", "friend", "boss", "roommate",
        "landlord", "grandma", "grandpa", "aunt", "uncle", "cousin", "partner", "girlfriend", "boyfriend",
    ]

    /// A name said right after one of `markers` ("to Sam").
    static func candidate(_ u: Utterance, after markers: [String], from start: Int = 0) -> String? {
        let words = u.words
        for marker in markers {
            for (at, word) in words.enumerated() where word == marker && at > start {
                // "to my mom": a relation stands for the person.
                if at + 2 < words.count, words[at + 1] == "my", relations.contains(words[at + 2]) { return words[at + 2] }
                if let phrase = u.phrase(after: at, limit: 3, stops: stops), looksLikeAName(phrase.text) { return phrase.text }
            }
        }
        return nil
    }

    /// A name said between a verb and the amount ("pay Sam $20", "ask Sam for $20").
    private static func candidate(_ u: Utterance, before amountStart: Int, verbs: Set<String>) -> String? {
        let words = u.words
        for (at, word) in words.enumerated() where verbs.contains(word) && at < amountStart {
            guard let phrase = u.phrase(after: at, limit: 3, stops: stops), looksLikeAName(phrase.text) else { continue }
            let next = phrase.range.upperBound
            if next == amountStart || (next < words.count && words[next] == "for" && next + 1 == amountStart) { return phrase.text }
        }
        return nil
    }

    /// Not a bill, an account, a bank or a word that is never a name.
    private static func looksLikeAName(_ phrase: String) -> Bool {
        let words = phrase.split(separator: " ").map(String.init)
        return words.allSatisfy { !notPeople.contains($0) && !PhraseFinder.fillers.contains($0) && !commonWords.contains($0) }
            && !Featurizer.banks.contains(where: { $0.allSatisfy(words.contains) })
    }

    /// Words after a verb that are not a person ("pay off", "give up").
    static let commonWords: Set<String> = [
        "off", "up", "down", "out", "over", "attention", "extra", "more", "less", "all", "everything", "what", "how", "if", "when",
        "that", "those", "these", "there", "here", "an", "uber", "taxi", "cab", "ride", "car", "flight", "order", "pto", "time", "vacation",
        // "pay $10 to enter the museum": a verb after "to" is a purpose, not a person.
        "enter", "fix", "get", "watch", "see", "be", "work", "park", "buy", "eat", "go", "have", "make", "play", "help", "cover", "keep",
        "rent", "use", "visit", "join", "book", "ride", "stay", "do", "start", "finish", "avoid", "cancel", "order", "pay", "send", "put",
        "nobody", "whoever", "anyone", "anybody", "everybody", "somebody", "no", "none", "refund", "amazon",
    ]

    /// "for dinner" → "dinner": what follows "for" when it is not an amount.
    static func note(_ u: Utterance) -> String? {
        guard let at = u.words.lastIndex(of: "for"),
            let note = u.phrase(after: at, limit: 8, stops: ["on", "tomorrow", "today", "with", "using", "from", "to", "via"])
        else { return nil }
        return withoutArticle(note.text)
    }

    /// `phrase` without a leading article ("the dinner" → "dinner", "la cena" → "cena").
    static func withoutArticle(_ phrase: String) -> String {
        let words = phrase.split(separator: " ")
        guard words.count > 1, ["the", "a", "an", "el", "la", "los", "las", "un", "una"].contains(String(words[0])) else { return phrase }
        return words.dropFirst().joined(separator: " ")
    }
}
