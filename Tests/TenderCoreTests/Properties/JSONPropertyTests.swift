// SPDX-License-Identifier: Apache-2.0
import PropertyBased
import Testing
@testable import TenderCore

/// The JSON parser and writer: parse, write, parse gives the same value, for any value.
@Suite struct JSONPropertyTests {
    /// Strings with quotes, backslashes, control characters, non-ASCII and astral scalars.
    static let text = Gen.frequency(
        (4, Gen.letterOrNumber),
        (1, Gen.element(of: Array("\"\\/\u{0}\u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f} é€𝄞\u{2028}")).compactMap { $0 }),
        (1, Gen.unicodeScalar(in: "\u{80}"..."\u{D7FF}").compactMap { Character($0) }),  // no surrogates: not scalars
        (1, Gen.unicodeScalar(in: "\u{E000}"..."\u{10FFFF}").compactMap { Character($0) })
    ).string(of: 0...12)

    static let number = Gen.frequency(
        (3, Gen.int(in: -1_000_000...1_000_000).map { String($0) }),
        (1, Gen.int(in: 0...999).map { "0.\($0)e-\($0 % 40)" }),
        (1, Gen.int(in: -99...99).map { "\($0).5E+\(abs($0) % 300)" })
    )

    /// A JSON value of depth at most `depth`.
    static func value(depth: Int) -> Generator<JSONValue, AnySequence<Any>> {
        let leaf = Gen.oneOf(
            Gen.bool.map { JSONValue.bool($0) }.eraseToAny(),
            text.map { JSONValue.string($0) }.eraseToAny(),
            number.map { JSONValue.number($0) }.eraseToAny(),
            Gen.bool.map { _ in JSONValue.null }.eraseToAny())
        guard depth > 0 else { return leaf.eraseToAny() }
        let inner = value(depth: depth - 1)
        return Gen.oneOf(
            leaf.eraseToAny(),
            inner.array(of: 0...4).map { JSONValue.array($0) }.eraseToAny(),
            PropertyBased.zip(text, inner).array(of: 0...4).map { pairs in
                var seen = Set<String>()
                return JSONValue.object(pairs.filter { seen.insert($0.0).inserted }.map { (key: $0.0, value: $0.1) })
            }.eraseToAny()
        ).eraseToAny()
    }

    @Test func parseWriteParseGivesTheSameValue() async {
        await propertyCheck(count: 1500, input: Self.value(depth: 4)) { value in
            let written = JSONWriter.bytes(value)
            let parsed = try #require(try? JSONParser.parse(written), "written JSON does not parse: \(String(decoding: written, as: UTF8.self))")
            #expect(parsed == value)
            #expect(JSONWriter.bytes(parsed) == written)
        }
    }

    /// Whitespace between tokens never changes the value.
    @Test func whitespaceDoesNotMatter() async {
        await propertyCheck(count: 500, input: Self.value(depth: 3), Gen.element(of: [" ", "\n", "\t", "\r\n ", "  "])) { value, space in
            let written = String(decoding: JSONWriter.bytes(value), as: UTF8.self)
            var spaced = ""
            var inString = false, escaped = false
            for character in written {
                spaced.append(character)
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if ",:[{".contains(character) {
                    spaced += space!
                }
            }
            #expect((try? JSONParser.parse(space! + spaced + space!)) == value)
        }
    }
}
