// SPDX-License-Identifier: Apache-2.0
/// Finds the amounts of money an utterance says: "$50", "50 bucks", "fifty
/// dollars", "1,250.50", "twelve dollars and 5 cents", "€20", "20 euros",
/// "50 dólares". Amounts are built as decimal text, never as floating point.
public enum AmountExtractor {
    /// An amount found and the tokens it spans; `explicit` when a currency was said.
    public struct Found: Equatable, Sendable {
        public let money: Money
        public let tokens: Range<Int>
        public let explicit: Bool
    }

    static let symbols: [String: String] = ["$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"]
    static let words: [String: String] = [
        "dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD", "usd": "USD", "dólar": "USD", "dólares": "USD", "dolares": "USD",
        "euro": "EUR", "euros": "EUR", "eur": "EUR", "pound": "GBP", "pounds": "GBP", "quid": "GBP", "gbp": "GBP", "yen": "JPY", "jpy": "JPY",
    ]
    static let cents: Set<String> = ["cent", "cents", "centavos", "céntimos", "pennies"]

    /// Every amount in `tokens`, left to right. A bare number counts (in
    /// `defaultCurrency`, not explicit) only when `bareNumbers` and it is no
    /// date ("the 15th").
    public static func find(in tokens: [TextToken], defaultCurrency: Currency, bareNumbers: Bool) -> [Found] {
        find(in: tokens, numbers: NumberSpans(tokens), defaultCurrency: defaultCurrency, bareNumbers: bareNumbers)
    }

    /// As ``find(in:defaultCurrency:bareNumbers:)``, with the numbers of `tokens` already read.
    static func find(in tokens: [TextToken], numbers: NumberSpans, defaultCurrency: Currency, bareNumbers: Bool) -> [Found] {
        var found: [Found] = []
        var i = 0
        while i < tokens.count {
            switch match(tokens, numbers, at: i, defaultCurrency: defaultCurrency, bareNumbers: bareNumbers) {
            case let .amount(hit)?:
                found.append(hit)
                i = hit.tokens.upperBound
            case let .refused(end)?:
                // Said with a currency but not a valid amount of it ("¥1.5", "$5 million"): no amount, and never read again.
                i = end
            case nil:
                i += 1
            }
        }
        return found
    }

    /// A number at `i`: digits as written (commas dropped), or number words; and the tokens it took.
    static func number(_ tokens: [TextToken], at i: Int) -> (text: String, count: Int)? {
        guard i < tokens.count else { return nil }
        if tokens[i].kind == .number { return (tokens[i].text.filter { $0 != "," }, 1) }
        guard let words = NumberWords.read(tokens, from: i) else { return nil }
        return (String(words.value), words.count)
    }

    private enum Match {
        case amount(Found)
        /// Tokens up to `end` said an amount that cannot be taken.
        case refused(end: Int)
    }

    static let scales: Set<String> = ["k", "m", "million", "millions", "billion", "billions", "thousand", "grand", "mil", "millones"]

    private static func match(_ tokens: [TextToken], _ numbers: NumberSpans, at i: Int, defaultCurrency: Currency, bareNumbers: Bool) -> Match? {
        let token = tokens[i]
        if token.kind == .symbol, let code = symbols[token.text], let n = numbers[i + 1] {
            var end = i + 1 + n.count
            if end < tokens.count, scales.contains(tokens[end].text) { return .refused(end: end + 1) }
            var text = n.text
            if let cents = cents(after: end, tokens, numbers), !text.contains(".") {
                text += "." + cents.text
                end = cents.end
            }
            return make(text, code, i..<end, explicit: true).map(Match.amount) ?? .refused(end: end)
        }
        guard let n = numbers[i] else { return nil }
        var end = i + n.count
        if end < tokens.count, tokens[end].kind == .word {
            let unit = tokens[end].text
            if cents.contains(unit) {
                return make(centsText(n.text), defaultCurrency.code, i..<(end + 1), explicit: true).map(Match.amount) ?? .refused(end: end + 1)
            }
            if let code = words[unit] {
                end += 1
                var text = n.text
                // "twelve dollars and 5 cents", "twelve dollars 5 cents"
                if let cents = cents(after: end, tokens, numbers), !text.contains(".") {
                    text += "." + cents.text
                    end = cents.end
                }
                return make(text, code, i..<end, explicit: true).map(Match.amount) ?? .refused(end: end)
            }
            if scales.contains(unit) { return .refused(end: end + 1) }
            // "5 and 50 cents": whole units and cents, in the default currency.
            if let cents = cents(after: end, tokens, numbers), tokens[end].text == "and" || tokens[end].text == "y", !n.text.contains(".") {
                return make(n.text + "." + cents.text, defaultCurrency.code, i..<cents.end, explicit: true).map(Match.amount)
                    ?? .refused(end: cents.end)
            }
            if DateExtractor.ordinalSuffixes.contains(unit) { return nil }
        }
        guard bareNumbers, tokens[i].kind == .number else { return nil }
        return make(n.text, defaultCurrency.code, i..<end, explicit: false).map(Match.amount)
    }

    /// "and 5 cents" or "5 cents" at `start`: the cents as two digits, and where they end.
    private static func cents(after start: Int, _ tokens: [TextToken], _ numbers: NumberSpans) -> (text: String, end: Int)? {
        var j = start
        if j < tokens.count, tokens[j].text == "and" || tokens[j].text == "y" { j += 1 }
        guard let c = numbers[j], let value = Int(c.text) else { return nil }
        let after = j + c.count
        if after < tokens.count, cents.contains(tokens[after].text) {
            // "and 150 cents" is no amount of cents: the whole amount is refused (an invalid cents text).
            return (value < 100 ? (value < 10 ? "0" : "") + String(value) : "000", after + 1)
        }
        // "3 dollars 50": the cents said without the word, at the end or before "to"/"for".
        guard j == start, value < 100, c.text.count == 2, after == tokens.count || ["to", "for", "please"].contains(tokens[after].text) else { return nil }
        return (c.text, after)
    }

    /// "150" cents → "1.50"; a fraction of a cent is no amount.
    private static func centsText(_ count: String) -> String {
        guard !count.contains("."), let value = Int(count) else { return "0.001" }
        let cents = value % 100
        return "\(value / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    private static func make(_ text: String, _ code: String, _ tokens: Range<Int>, explicit: Bool) -> Found? {
        guard let currency = try? Currency(code: code), let money = try? Money(decimal: text, currency: currency) else { return nil }
        return Found(money: money, tokens: tokens, explicit: explicit)
    }
}

/// The number starting at each token, read once: digits as written (commas
/// dropped) or number words, with how many tokens it takes.
struct NumberSpans {
    private let spans: [(text: String, count: Int)?]

    init(_ tokens: [TextToken]) {
        spans = tokens.indices.map { AmountExtractor.number(tokens, at: $0) }
    }

    subscript(index: Int) -> (text: String, count: Int)? { index < spans.count ? spans[index] : nil }
}
