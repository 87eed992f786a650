// SPDX-License-Identifier: Apache-2.0
/// One utterance prepared for understanding: its tokens, the app's name
/// taken out ("with Tender"), and the amounts and dates found in it.
struct Utterance {
    let text: String
    let tokens: [TextToken]
    let namedApp: Bool
    let amounts: [AmountExtractor.Found]
    let dates: [DateExtractor.Found]
    /// The number starting at each token, read once for the amounts and the model's features.
    let numbers: NumberSpans

    static let appPhrases: [[String]] = [
        ["with", "tender"], ["using", "tender"], ["in", "tender"], ["on", "tender"], ["via", "tender"], ["through", "tender"],
        ["con", "tender"], ["mit", "tender"], ["tender"],
    ]

    init(_ text: String, context: ParseContext) {
        self.text = text
        let (tokens, named) = Self.withoutAppName(TextToken.tokenize(text))
        self.tokens = tokens
        self.words = tokens.map(\.text)
        self.namedApp = named
        self.dates = DateExtractor.find(in: tokens, today: context.today)
        let days = dates.map(\.tokens)
        self.numbers = NumberSpans(tokens)
        self.amounts = AmountExtractor.find(in: tokens, numbers: numbers, defaultCurrency: context.defaultCurrency, bareNumbers: true)
            .filter { amount in !days.contains { $0.overlaps(amount.tokens) } }
    }

    /// `tokens` without the app's name ("Tender, pay my bill", "... with Tender"), and whether it was said.
    static func withoutAppName(_ tokens: [TextToken]) -> (tokens: [TextToken], named: Bool) {
        var tokens = tokens
        var named = false
        for phrase in appPhrases {
            var i = 0
            while i + phrase.count <= tokens.count {
                let atEdge = i == 0 || i + phrase.count == tokens.count
                if atEdge, Phrase.starts(phrase, in: tokens.lazy.map(\.text), at: i) {
                    tokens.removeSubrange(i..<(i + phrase.count))
                    named = true
                } else {
                    i += 1
                }
            }
        }
        return (tokens, named)
    }

    /// How a phrase is compared with a shortcut's: its words without the app's name, compacted.
    static func shortcutKey(_ text: String) -> String {
        PhraseKey.compact(withoutAppName(TextToken.tokenize(text)).tokens.map(\.text).joined(separator: " "))
    }

    /// The text without the app's name, for shortcuts.
    var spoken: String { tokens.map(\.text).joined(separator: " ") }

    /// The classifier's normalised words of the text without the app's name, the labeller's `spans` of people
    /// standing as "zperson" and each of `accounts` (found in the directory) as the word for its type.
    func normalised(_ spans: [TaggedSpan], accounts: [(account: Account, range: Range<Int>)] = []) -> [String] {
        var people = [Bool](repeating: false, count: tokens.count)
        for span in spans where span.slot == "person" {
            for i in span.tokens { people[i] = true }
        }
        // The models never saw the person's own account names: to them, "Safe-to-Spend" is a checking account.
        let named = accounts.filter { !$0.range.contains { people[$0] } }.map { found in
            (range: found.range, word: found.account.type == .saving ? "savings" : found.account.type == .checking ? "checking" : "account")
        }
        return Featurizer.words(tokens, numbers: numbers, people: people, accounts: named)
    }

    /// The tokens' texts (lower-cased words, numbers, symbols), in order.
    let words: [String]

    func has(_ word: String) -> Bool { words.contains(word) }

    func hasAny(_ set: Set<String>) -> Bool { words.contains { set.contains($0) } }

    /// The first explicit amount, else the first bare number.
    var amount: Money? { (amounts.first(where: \.explicit) ?? amounts.first)?.money }

    /// Whether the token at `index` belongs to an amount or a date.
    func isValue(_ index: Int) -> Bool {
        amounts.contains { $0.tokens.contains(index) } || dates.contains { $0.tokens.contains(index) }
    }

    /// The words after `index` up to a stop word, a value or `limit` words.
    func phrase(after index: Int, limit: Int, stops: Set<String>) -> (text: String, range: Range<Int>)? {
        var end = index + 1
        while end < tokens.count, end - index - 1 < limit, tokens[end].kind == .word, !stops.contains(tokens[end].text), !isValue(end) { end += 1 }
        guard end > index + 1 else { return nil }
        return (tokens[(index + 1)..<end].map(\.text).joined(separator: " "), (index + 1)..<end)
    }
}
