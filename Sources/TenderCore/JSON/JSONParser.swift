// SPDX-License-Identifier: Apache-2.0
/// Parses UTF-8 JSON (RFC 8259) into a ``JSONValue``.
///
/// Total: every malformed input gives ``TenderError/invalidJSON(_:)`` with the
/// byte offset; nesting deeper than `maxDepth` is refused rather than
/// recursing without bound. Duplicate object keys are refused.
public struct JSONParser {
    public static let defaultMaxDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one complete JSON document; trailing non-space text is an error.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(TenderError) -> JSONValue {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .invalidUTF8("input is not valid UTF-8")
        }
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the document") }
        return value
    }

    /// Parses JSON held in a String.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(TenderError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private func failure(_ what: String) -> TenderError {
        .invalidJSON("\(what) at byte \(index)")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(TenderError) -> JSONValue {
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
        guard let c = current else { throw failure("unexpected end of input") }
        switch c {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character")
        }
    }

    private mutating func expectWord(_ word: String) throws(TenderError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw failure("invalid literal")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(TenderError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try parseString()
            guard seen.insert(key).inserted else { throw failure("duplicate member \"\(key.prefix(40))\"") }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipSpace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(TenderError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try parseValue(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(TenderError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("invalid number") }
        index += 1
        if first != UInt8(ascii: "0") { while let c = current, isDigit(c) { index += 1 } }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let c = current, isDigit(c) else { throw failure("invalid number") }
            while let c = current, isDigit(c) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let c = current, isDigit(c) else { throw failure("invalid number") }
            while let c = current, isDigit(c) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private mutating func parseString() throws(TenderError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw failure("unterminated string") }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw failure("control character in string")
            default:
                out.append(c)
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(TenderError) {
        guard let e = current else { throw failure("unterminated escape") }
        index += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("unpaired surrogate")
                }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape") }
            out.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func parseHex4() throws(TenderError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw failure("short \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt16
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(c - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
