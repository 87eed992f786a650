// SPDX-License-Identifier: Apache-2.0
/// The slot labeller's features of each token of an utterance: the word and
/// its neighbours (two either side), the adjacent word pairs, the suffix, the
/// shape as typed (capitalised, digits, symbol), whether the word is common in
/// the training text (``CommonWords``: a rare word after "to" is likely a name,
/// typed in lower case or not) with its shape and its neighbours, the first and
/// last position, and whether the value normalisers read the token as part of
/// an amount or a date. Each feature is a 64-bit FNV-1a hash with a one-byte kind tag.
/// The same code computes the training features (`tender features --tagger`),
/// so training and labelling cannot drift. Pure and thread-safe.
public enum TagFeaturizer {
    /// The feature hashes of each of `u`'s tokens, in order.
    static func features(_ u: Utterance) -> [[UInt64]] {
        let all = flatFeatures(u)
        var start = 0
        return all.ends.map { end in
            defer { start = end }
            return Array(all.hashes[start..<end])
        }
    }

    /// The feature hashes of all of `u`'s tokens in one array, token after token; token i's end where `ends[i]` says.
    static func flatFeatures(_ u: Utterance) -> (hashes: [UInt64], ends: [Int]) {
        let words = u.tokens.map { token -> [UInt8] in
            switch token.kind {
            case .number: return Array("znum".utf8)
            case .symbol, .word: return Array(token.text.utf8)
            }
        }
        var flags = [UInt8](repeating: 0x30, count: u.tokens.count)  // "0": no value
        for amount in u.amounts {
            for i in amount.tokens { flags[i] = amount.explicit ? (i == amount.tokens.lowerBound ? 0x41 : 0x61) : 0x62 }  // A a b
        }
        for date in u.dates {
            for i in date.tokens { flags[i] = i == date.tokens.lowerBound ? 0x44 : 0x64 }  // D d
        }
        let common = CommonWords.shared
        let rarity = u.tokens.indices.map { i -> UInt8 in
            guard u.tokens[i].kind == .word else { return 0x6E }  // "n": not a word
            return common.contains(words[i][...]) ? 0x63 : 0x72  // "c" common, "r" rare
        }
        let start = Array("<s>".utf8)
        let end = Array("</s>".utf8)
        func word(_ i: Int) -> [UInt8] { i < 0 ? start : i >= words.count ? end : words[i] }
        typealias FNV = Featurizer.FNV
        var f: [UInt64] = []
        f.reserveCapacity(words.count * 17)
        var ends: [Int] = []
        ends.reserveCapacity(words.count)
        for i in words.indices {
            let w = words[i][...]
            f.append(FNV.start(0x01).value)
            f.append(FNV.start(0x10).adding(w).value)
            f.append(FNV.start(0x11).adding(word(i - 1)[...]).value)
            f.append(FNV.start(0x12).adding(word(i + 1)[...]).value)
            f.append(FNV.start(0x13).adding(word(i - 2)[...]).value)
            f.append(FNV.start(0x14).adding(word(i + 2)[...]).value)
            f.append(FNV.start(0x15).adding(word(i - 1)[...]).adding(0x20).adding(w).value)
            f.append(FNV.start(0x16).adding(w).adding(0x20).adding(word(i + 1)[...]).value)
            if w.count > 3 { f.append(FNV.start(0x17).adding(w.suffix(3)).value) }
            f.append(FNV.start(0x18).adding(shape(u.tokens[i])).value)
            f.append(FNV.start(0x19).adding(flags[i]).value)
            f.append(FNV.start(0x1A).adding(i > 0 ? flags[i - 1] : 0x5E).adding(flags[i]).adding(i + 1 < flags.count ? flags[i + 1] : 0x24).value)
            f.append(FNV.start(0x1D).adding(rarity[i]).adding(shape(u.tokens[i])).value)
            f.append(FNV.start(0x1E).adding(word(i - 1)[...]).adding(0x20).adding(rarity[i]).value)
            f.append(FNV.start(0x1F).adding(rarity[i]).adding(0x20).adding(word(i + 1)[...]).value)
            if i == 0 { f.append(FNV.start(0x1B).value) }
            if i == words.count - 1 { f.append(FNV.start(0x1C).value) }
            ends.append(f.count)
        }
        return (f, ends)
    }

    /// "X" capitalised, "x" lower case, "d" number, "s" symbol: how the token was typed.
    static func shape(_ token: TextToken) -> UInt8 {
        switch token.kind {
        case .number: return 0x64
        case .symbol: return 0x73
        case .word: return token.capitalized ? 0x58 : 0x78
        }
    }
}

extension TagFeaturizer {
    /// What the training script needs of one text, computed as parsing does:
    /// each token's place in the text (Unicode scalars), each token's labeller
    /// features, and the intent model's features (people as the compiled
    /// labeller marks them, so the labeller is trained first).
    public static func training(_ text: String, today: LocalDate) -> (spans: [Range<Int>], tokens: [[UInt64]], intent: [UInt64]) {
        let u = Utterance(text, context: ParseContext(today: today))
        let people = SlotTagger.shared?.spans(u) ?? []
        return (u.tokens.map(\.span), features(u), Featurizer.features(normalised: u.normalised(people)))
    }
}
