// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct RandomIDTests {
    private func isHex32(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    @Test func randomIDsAre32HexDigitsAndDiffer() {
        let ids = (0..<100).map { _ in RandomID.make() }
        #expect(ids.allSatisfy(isHex32))
        #expect(Set(ids).count == ids.count)
    }

    @Test func orderedIDsSortInTheOrderTheyWereMade() {
        let ids = (0..<1000).map { _ in RandomID.makeOrdered() }
        #expect(ids.allSatisfy(isHex32))
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        // The last 16 digits are random, not the counter again.
        #expect(Set(ids.map { $0.suffix(16) }).count == ids.count)
    }

    @Test func aSessionWithoutAHostKeyMakesAnOrderedOne() throws {
        let (engine, _, _) = try Fixtures.engine()
        let first = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent":"send_payment"}"#)).idempotencyKey
        let second = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent":"send_payment"}"#)).idempotencyKey
        #expect(isHex32(first) && isHex32(second))
        #expect(first < second)
    }
}
