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
        var tokens = TextToken.tokenize(text)
        var named = false
        // "Tender, pay my bill" or "... with Tender": the app's name, not a part of the request.
        for phrase in Self.appPhrases {
            var i = 0
            while i + phrase.count <= tokens.count {
                let atEdge = i == 0 || i + phrase.count == tokens.count
                if atEdge, (0..<phrase.count).allSatisfy({ tokens[i + $0].kind == .word && tokens[i + $0].text == phrase[$0] }) {
                    tokens.removeSubrange(i..<(i + phrase.count))
                    named = true
                } else {
                    i += 1
                }
            }
        }
        self.tokens = tokens
        self.namedApp = named
        self.dates = DateExtractor.find(in: tokens, today: context.today)
        let days = dates.map(\.tokens)
        self.numbers = NumberSpans(tokens)
        self.amounts = AmountExtractor.find(in: tokens, numbers: numbers, defaultCurrency: context.defaultCurrency, bareNumbers: true)
            .filter { amount in !days.contains { $0.overlaps(amount.tokens) } }
    }

    /// The text without the app's name, for shortcuts.
    var spoken: String { tokens.map(\.text).joined(separator: " ") }

    /// The model's features of the text without the app's name (as ``Featurizer/features(_:)`` of ``spoken``).
    var features: [UInt64] { Featurizer.features(normalised: Featurizer.words(tokens, numbers: numbers)) }

    /// The lower-cased words, in order.
    var words: [String] { tokens.map(\.text) }

    func has(_ word: String) -> Bool { tokens.contains { $0.kind == .word && $0.text == word } }

    func hasAny(_ words: Set<String>) -> Bool { tokens.contains { $0.kind == .word && words.contains($0.text) } }

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
