/// One token of an utterance: a lower-cased word, a number as written
/// ("1,250.50"), or a currency symbol.
public struct TextToken: Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case word, number, symbol
    }

    public let kind: Kind
    public let text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// Splits `text` into tokens: runs of letters (lower-cased; apostrophes
    /// and other punctuation split words), numbers with "," thousands groups
    /// and one "." fraction, and the currency symbols $ € £ ¥. Everything
    /// else separates tokens.
    public static func tokenize(_ text: String) -> [TextToken] {
        var tokens: [TextToken] = []
        let characters = Array(text.lowercased())
        var index = 0
        while index < characters.count {
            let c = characters[index]
            if c.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                tokens.append(TextToken(.word, String(characters[index..<end])))
                index = end
            } else if c.isASCII, c.isNumber {
                var end = index
                var seenPoint = false
                while end < characters.count {
                    let d = characters[end]
                    if d.isASCII, d.isNumber {
                        end += 1
                    } else if (d == "," || (d == "." && !seenPoint)), end + 1 < characters.count, characters[end + 1].isASCII,
                        characters[end + 1].isNumber
                    {
                        if d == "." { seenPoint = true }
                        end += 1
                    } else {
                        break
                    }
                }
                tokens.append(TextToken(.number, String(characters[index..<end])))
                index = end
            } else {
                if "$€£¥".contains(c) { tokens.append(TextToken(.symbol, String(c))) }
                index += 1
            }
        }
        return tokens
    }
}
