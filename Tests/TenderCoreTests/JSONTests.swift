// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct JSONTests {
    @Test func roundTripsKeepingOrderAndNumberText() throws {
        let text = #"{"b":1,"a":[true,false,null,"x\"\\\n\u00e9😀"],"n":-0.5e+3,"o":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value["n"] == .number("-0.5e+3"))
        #expect(value["a"]?.arrayValue?.count == 4)
        #expect(JSONWriter.string(value) == #"{"b":1,"a":[true,false,null,"x\"\\\né😀"],"n":-0.5e+3,"o":{}}"#)
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "1.", "-", "tru", "\"abc", "\"\\x\"", "\"\\ud800\"",
                      "{\"a\":1}x", "{\"a\":1,\"a\":2}", "\"a\u{1}b\"", "[1 2]", "nul"])
    func refusesMalformedInput(text: String) {
        #expect(throws: TenderError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: TenderError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect(throws: Never.self) { try JSONParser.parse(fine) }
    }

    @Test func refusesInvalidUTF8AndOversizedInput() {
        #expect(throws: TenderError.self) { try JSONInput.parse([0x22, 0xFF, 0x22]) }
        let big = [UInt8](repeating: 0x20, count: JSONInput.maxBytes + 1)
        #expect {
            try JSONInput.parse(big)
        } throws: { error in
            if case .tooLarge = error as? TenderError { return true }
            return false
        }
    }

    @Test func escapesControlCharacters() {
        #expect(JSONWriter.string(.string("a\u{0}b\u{1F}")) == #""a\u0000b\u001f""#)
    }

    @Test func escapesAtTheEdgesOfAStringAndBetweenRuns() {
        #expect(JSONWriter.string(.string("\"")) == #""\"""#)
        #expect(JSONWriter.string(.string("\\ab\t\r\u{7F}é")) == #""\\ab\t\r\u007fé""#)
        #expect(JSONWriter.string(.string("")) == #""""#)
        #expect(JSONWriter.string(.string("plain text")) == #""plain text""#)
    }

    @Test func membersSpliceIntoTheObjectTheyCameFrom() {
        let members: [(key: String, value: JSONValue)] = [("a", .number("1")), ("b", .string("x\"y")), ("c", .array([.null]))]
        let spliced = "{" + String(decoding: JSONWriter.members(Array(members[..<2])), as: UTF8.self) + ","
            + String(decoding: JSONWriter.members(Array(members[2...])), as: UTF8.self) + "}"
        #expect(spliced == JSONWriter.string(.object(members)))
        #expect(JSONWriter.members([]).isEmpty)
    }

    @Test func objectReaderRefusesUnknownMembers() throws {
        let value = try JSONParser.parse(#"{"a": 1, "zzz": 2}"#)
        #expect(throws: TenderError.self) { try ObjectReader(value, name: "x", allowed: ["a"]) }
    }
}
