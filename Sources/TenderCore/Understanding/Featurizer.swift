// SPDX-License-Identifier: Apache-2.0
/// Turns an utterance into the hashed features of the intent model: word
/// unigrams and bigrams over normalised tokens (amounts → "zmoney", numbers
/// → "znum", bank and card names → "zbank", bill kinds → "zbilltype", the
/// people the slot labeller marked → "zperson"), and
/// character 3- to 5-grams of each word. The same code produces the training
/// features (`tender features`), so training and parsing cannot drift.
public enum Featurizer {
    static let banks: [[String]] = [
        ["wells", "fargo"], ["bank", "of", "america"], ["capital", "one"], ["american", "express"], ["us", "bank"], ["td", "bank"],
        ["mellon", "bank"], ["chase"], ["citibank"], ["citi"], ["pnc"], ["mellon"], ["usaa"], ["ally"], ["amex"], ["mastercard"], ["visa"],
        ["discover"], ["boa"],
    ]
    static let banksByFirstWord: [String: [[String]]] = Dictionary(grouping: banks, by: { $0[0] })
    static let billKinds: Set<String> = [
        "water", "electric", "electricity", "gas", "phone", "cable", "internet", "utility", "utilities", "rent", "mortgage", "insurance",
        "power", "sewer", "trash", "garbage", "tuition", "wifi",
    ]

    /// The normalised words of `tokens`.
    public static func words(_ tokens: [TextToken]) -> [String] { words(tokens, numbers: NumberSpans(tokens)) }

    /// As ``words(_:)``, with the numbers of `tokens` already read; the tokens at `people` (the slot
    /// labeller's person spans) become "zperson", so that a name says who, never which intent; each of
    /// `accounts` (the person's own accounts named in the text) becomes its one word.
    static func words(
        _ tokens: [TextToken], numbers: NumberSpans, people: [Bool] = [], accounts: [(range: Range<Int>, word: String)] = []
    ) -> [String] {
        let amounts = AmountExtractor.find(in: tokens, numbers: numbers, defaultCurrency: .usDollar, bareNumbers: false)
        var out: [String] = []
        var i = 0
        while i < tokens.count {
            if let amount = amounts.first(where: { $0.tokens.lowerBound == i }) {
                out.append("zmoney")
                i = amount.tokens.upperBound
                continue
            }
            if let account = accounts.first(where: { $0.range.lowerBound == i }) {
                out.append(account.word)
                i = account.range.upperBound
                continue
            }
            if i < people.count, people[i] {
                if out.last != "zperson" { out.append("zperson") }
                i += 1
                continue
            }
            if let n = numbers[i] {
                if out.last != "znum" { out.append("znum") }
                i += n.count
                continue
            }
            let token = tokens[i]
            if token.kind == .symbol {
                i += 1
                continue
            }
            if let candidates = banksByFirstWord[token.text],
                let bank = candidates.first(where: { Phrase.starts($0, in: tokens.lazy.map(\.text), at: i) })
            {
                out.append("zbank")
                i += bank.count
                continue
            }
            out.append(billKinds.contains(token.text) ? "zbilltype" : token.text)
            i += 1
        }
        return out
    }

    /// The feature hashes of `text`, with repeats.
    public static func features(_ text: String) -> [UInt64] {
        let tokens = TextToken.tokenize(text)
        return features(normalised: words(tokens, numbers: NumberSpans(tokens)))
    }

    /// The feature hashes of normalised words.
    static func features(normalised: [String]) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(normalised.count * 14)
        var previous: [UInt8] = []
        // The word between boundary marks, "<word>", reused from word to word.
        var bounded: [UInt8] = []
        bounded.reserveCapacity(32)
        for word in normalised {
            bounded.removeAll(keepingCapacity: true)
            bounded.append(0x3C)
            bounded.append(contentsOf: word.utf8)
            bounded.append(0x3E)
            let bytes = bounded[1..<(bounded.count - 1)]
            hashes.append(FNV.start(0x77).adding(bytes).value)
            if !previous.isEmpty { hashes.append(FNV.start(0x62).adding(previous[...]).adding(0x20).adding(bytes).value) }
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: bytes)
            // Every placeholder starts with "z": most words need no look-up.
            guard bytes.first != 0x7A || !placeholders.contains(word) else { continue }
            for n in 3...5 where bounded.count >= n {
                for start in 0...(bounded.count - n) { hashes.append(FNV.start(0x63).adding(bounded[start..<(start + n)]).value) }
            }
        }
        return hashes
    }

    /// The words that stand for a kind of value; they get no character n-grams.
    static let placeholders: Set<String> = ["zmoney", "znum", "zbank", "zbilltype", "zperson"]

    /// FNV-1a, 64 bits: a one-byte kind tag, ":", then the feature's bytes.
    struct FNV {
        var value: UInt64

        static func start(_ tag: UInt8) -> FNV { FNV(value: 0xcbf2_9ce4_8422_2325).adding(tag).adding(0x3A) }

        func adding(_ byte: UInt8) -> FNV { FNV(value: (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3) }

        func adding(_ bytes: ArraySlice<UInt8>) -> FNV {
            var h = value
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return FNV(value: h)
        }
    }

}
