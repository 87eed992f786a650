// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct LedgerPositionTests {
    let position = LedgerPosition(sequence: 42, previousHash: LedgerPosition.genesisHash, createdAtMilliseconds: 1_795_000_000_123)

    @Test func aPayloadIsTheObjectOfThePositionTheBodyAndTheTime() {
        let body: [(key: String, value: JSONValue)] = [("id", .string("r1")), ("note", .string("a \"quoted\" note"))]
        let expected = JSONWriter.string(.object(position.members(type: "payment") + body + [("createdAt", .string(position.createdAt))]))
        #expect(position.payload(type: "payment", body: JSONWriter.members(body)) == expected)
    }

    @Test func anEmptyBodyLeavesNoStrayComma() throws {
        let payload = position.payload(type: "payment", body: [])
        #expect(payload == #"{"type":"payment","sequence":42,"previousHash":"\#(LedgerPosition.genesisHash)","createdAt":"\#(position.createdAt)"}"#)
        #expect(try JSONParser.parse(payload)["sequence"] == .number("42"))
    }
}
