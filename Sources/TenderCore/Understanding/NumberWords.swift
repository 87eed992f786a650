// SPDX-License-Identifier: Apache-2.0
/// Whole numbers said in words, English and Spanish: "twelve", "one hundred
/// and fifty", "two thousand", "cincuenta", "veinte".
public enum NumberWords {
    static let units: [String: Int64] = [
        "zero": 0, "one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
        "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
        "uno": 1, "un": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9,
        "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15, "dieciséis": 16, "diecisiete": 17,
        "dieciocho": 18, "diecinueve": 19, "veinte": 20, "veintiuno": 21, "veintidós": 22, "veinticinco": 25, "treinta": 30,
        "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90, "cien": 100, "ciento": 100,
        "doscientos": 200, "trescientos": 300, "quinientos": 500,
    ]
    static let multipliers: [String: Int64] = ["hundred": 100, "thousand": 1000, "million": 1_000_000, "mil": 1000]
    static let joiners: Set<String> = ["and", "y"]

    /// The number the words starting at `start` say, and how many tokens it
    /// took; nil when no number word starts there, or when the words do not
    /// form one number ("one two", "a million million", "zero hundred").
    /// "a" alone is not a number.
    public static func read(_ tokens: [TextToken], from start: Int) -> (value: Int64, count: Int)? {
        enum Last { case none, unit, teen, ten, hundreds, hundred, big }
        var total: Int64 = 0
        var current: Int64 = 0
        var last = Last.none
        var lastBig: Int64 = .max
        var index = start
        var consumed = 0
        while index < tokens.count, tokens[index].kind == .word {
            let word = tokens[index].text
            if let unit = units[word] {
                if word == "a" || word == "un" || word == "una" {
                    // "a hundred" is a number; "a" before anything else is not.
                    guard last == .none, index + 1 < tokens.count, multipliers[tokens[index + 1].text] != nil else { break }
                }
                let kind: Last = unit < 10 ? .unit : unit < 20 ? .teen : unit < 100 ? .ten : .hundreds
                let fits: Bool
                switch kind {
                case .unit: fits = [.none, .ten, .hundred, .hundreds, .big].contains(last)
                case .teen, .ten: fits = [.none, .hundred, .hundreds, .big].contains(last)
                default: fits = [.none, .big].contains(last)
                }
                guard fits else { return nil }
                current += unit
                last = kind
            } else if let multiplier = multipliers[word], last != .none || word == "mil" {
                if multiplier < 1000 {
                    guard current > 0, current < 100, last != .hundred else { return nil }
                    current *= multiplier
                    last = .hundred
                } else {
                    guard multiplier < lastBig, current > 0 || (word == "mil" && last == .none) else { return nil }
                    total += max(current, 1) * multiplier
                    current = 0
                    lastBig = multiplier
                    last = .big
                }
            } else if joiners.contains(word), last != .none, index + 1 < tokens.count, units[tokens[index + 1].text] != nil {
                // "one hundred and fifty"; a trailing "and" belongs to the sentence.
            } else {
                break
            }
            index += 1
            consumed = index - start
            guard total + current < 1_000_000_000_000 else { return nil }
        }
        return last != .none ? (total + current, consumed) : nil
    }
}
