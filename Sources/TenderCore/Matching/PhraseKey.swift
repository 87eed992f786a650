// SPDX-License-Identifier: Apache-2.0
/// Keys under which spoken or typed phrases compare: spelling, words, sound.
///
/// Pure functions; safe from any thread.
public enum PhraseKey {
    /// Lower-cased letters and digits only: "Safe-to-Spend" and "safe to spend" give "safetospend".
    public static func compact(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// Lower-cased words of letters and digits.
    public static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The American Soundex code of the ASCII letters of `word`, e.g. "Robert" gives "R163";
    /// empty when `word` has no ASCII letter.
    public static func soundex(_ word: String) -> String {
        let letters = word.compactMap { character -> UInt8? in
            guard let ascii = character.asciiValue, character.isLetter else { return nil }
            return ascii | 0x20
        }
        guard let first = letters.first else { return "" }
        var code = [first & ~0x20]
        var previous = soundexDigit(first)
        for letter in letters.dropFirst() where code.count < 4 {
            if letter == UInt8(ascii: "h") || letter == UInt8(ascii: "w") { continue }
            let digit = soundexDigit(letter)
            if digit != 0 && digit != previous { code.append(UInt8(ascii: "0") + digit) }
            previous = digit
        }
        code += [UInt8](repeating: UInt8(ascii: "0"), count: 4 - code.count)
        return String(decoding: code, as: UTF8.self)
    }

    /// The Soundex code of each word of `text`, in order.
    public static func phonetic(_ text: String) -> [String] {
        words(text).map(soundex)
    }

    /// The Levenshtein distance between `a` and `b`, counted in Characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }

    /// The Soundex digit of a lower-case ASCII letter; 0 for a vowel, y, h and w.
    private static func soundexDigit(_ letter: UInt8) -> UInt8 {
        switch letter {
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "p"), UInt8(ascii: "v"): return 1
        case UInt8(ascii: "c"), UInt8(ascii: "g"), UInt8(ascii: "j"), UInt8(ascii: "k"), UInt8(ascii: "q"),
            UInt8(ascii: "s"), UInt8(ascii: "x"), UInt8(ascii: "z"):
            return 2
        case UInt8(ascii: "d"), UInt8(ascii: "t"): return 3
        case UInt8(ascii: "l"): return 4
        case UInt8(ascii: "m"), UInt8(ascii: "n"): return 5
        case UInt8(ascii: "r"): return 6
        default: return 0
        }
    }
}
