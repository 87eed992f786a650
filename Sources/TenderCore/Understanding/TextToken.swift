// SPDX-License-Identifier: Apache-2.0
/// One token of an utterance: a lower-cased word, a number as written
/// ("1,250.50"), or a currency symbol.
public struct TextToken: Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case word, number, symbol
    }

    public let kind: Kind
    public let text: String
    /// Where the token stands in the text it came from, in Unicode scalars
    /// (the offsets of the ../shared/data/sgd slot spans); empty for a token made by hand.
    public let span: Range<Int>
    /// Whether the word was typed with a capital first letter.
    public let capitalized: Bool

    public init(_ kind: Kind, _ text: String, span: Range<Int> = 0..<0, capitalized: Bool = false) {
        self.kind = kind
        self.text = text
        self.span = span
        self.capitalized = capitalized
    }

    /// Tokens are equal when their kind and text are: where they stood does not matter.
    public static func == (a: TextToken, b: TextToken) -> Bool { a.kind == b.kind && a.text == b.text }

    /// Splits `text` into tokens: runs of letters (lower-cased; apostrophes
    /// and other punctuation split words), numbers with "," thousands groups
    /// and one "." fraction, and the currency symbols $ € £ ¥. Everything
    /// else separates tokens.
    public static func tokenize(_ text: String) -> [TextToken] {
        var tokens: [TextToken] = []
        let view = text.unicodeScalars
        let scalars = Array(view)
        // Where each scalar starts in the text, so that a word is copied out of it in one piece.
        var starts = Array(view.indices)
        starts.append(view.endIndex)
        func isDigit(_ i: Int) -> Bool { i < scalars.count && scalars[i].value >= 0x30 && scalars[i].value <= 0x39 }
        func isLetter(_ i: Int) -> Bool {
            let v = scalars[i].value
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A)
                || (v > 0x7F && (scalars[i].properties.isAlphabetic || scalars[i].properties.generalCategory == .nonspacingMark))
        }
        var index = 0
        while index < scalars.count {
            if isLetter(index) {
                var end = index
                while end < scalars.count, isLetter(end) { end += 1 }
                let first = scalars[index]
                let capitalized = first.isASCII ? (first.value >= 0x41 && first.value <= 0x5A) : first.properties.isUppercase
                tokens.append(TextToken(.word, String(view[starts[index]..<starts[end]]).lowercased(), span: index..<end, capitalized: capitalized))
                index = end
            } else if isDigit(index) {
                // "1,250.50": commas group thousands (three digits each). "10,99": a decimal comma, kept as ".".
                var text = String.UnicodeScalarView()
                var end = index
                var seenPoint = false
                while end < scalars.count {
                    if isDigit(end) {
                        text.append(scalars[end])
                        end += 1
                        continue
                    }
                    var digitsAfter = 0
                    while isDigit(end + 1 + digitsAfter) { digitsAfter += 1 }
                    if scalars[end] == ",", !seenPoint, digitsAfter == 3 {
                        text.append(",")
                    } else if scalars[end] == "." || scalars[end] == ",", !seenPoint, digitsAfter > 0, scalars[end] == "." || digitsAfter <= 2 {
                        text.append(".")
                        seenPoint = true
                    } else {
                        break
                    }
                    end += 1
                }
                // "-20" (or the "-30" of "20-30"): negative, or a range, which no amount accepts (Money refuses the sign).
                let negative = index > 0 && scalars[index - 1] == "-"
                tokens.append(TextToken(.number, (negative ? "-" : "") + String(text), span: index..<end))
                index = end
            } else {
                if "$€£¥".unicodeScalars.contains(scalars[index]) { tokens.append(TextToken(.symbol, String(scalars[index]), span: index..<(index + 1))) }
                index += 1
            }
        }
        return tokens
    }
}
