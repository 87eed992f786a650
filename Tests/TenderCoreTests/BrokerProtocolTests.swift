// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct BrokerProtocolTests {
    @Test func framesRoundTrip() throws {
        let message = BrokerMessage(.answer, [("answer", .object([("parameter", .string("payee")), ("choose", .string("john-baily"))]))])
        let frame = BrokerFrame.encode(message)
        #expect(try BrokerFrame.bodyLength(header: frame[0..<4]) == frame.count - 4)
        #expect(try BrokerFrame.decode(frame) == message)
    }

    @Test func refusesOversizedAndEmptyFramesFromTheHeaderAlone() {
        let big = BrokerFrame.maxBodyBytes + 1
        let header: [UInt8] = [UInt8(big >> 24), UInt8((big >> 16) & 0xFF), UInt8((big >> 8) & 0xFF), UInt8(big & 0xFF)]
        #expect(throws: TenderError.tooLarge("a broker frame of \(big) bytes exceeds \(BrokerFrame.maxBodyBytes)")) {
            try BrokerFrame.bodyLength(header: header)
        }
        #expect(throws: TenderError.self) { try BrokerFrame.bodyLength(header: [0, 0, 0, 0]) }
        #expect(throws: TenderError.self) { try BrokerFrame.bodyLength(header: [0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: TenderError.self) { try BrokerFrame.bodyLength(header: [0, 1]) }
    }

    @Test func refusesTruncatedAndPaddedFrames() {
        let frame = BrokerFrame.encode(BrokerMessage(.resolve))
        #expect(throws: TenderError.self) { try BrokerFrame.decode(Array(frame.dropLast())) }
        #expect(throws: TenderError.self) { try BrokerFrame.decode(frame + [0x20]) }
        #expect(throws: TenderError.self) { try BrokerFrame.decode(Array(frame.prefix(3))) }
    }

    @Test(arguments: [
        #"{"tender":2,"op":"resolve"}"#, #"{"op":"resolve"}"#, #"{"tender":"1","op":"resolve"}"#, #"{"tender":1,"op":"pay"}"#,
        #"{"tender":1,"op":"resolve","body":[]}"#, #"{"tender":1,"op":"resolve","uid":0}"#, #"{"tender":1,"op":"resolve","op":"handle"}"#,
        #"{"tender":1}"#, "[]", "", "{\"tender\":1,\"op\":\"resolve\"", "{\"tender\":1,\"op\":\"re\u{FFFD}\"}",
    ])
    func refusesForgedMessages(text: String) {
        #expect(throws: TenderError.self) { try BrokerMessage(body: Array(text.utf8)) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: TenderError.invalidUTF8("input is not valid UTF-8")) {
            try BrokerMessage(body: Array(#"{"tender":1,"op":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        }
    }

    @Test func errorsCrossTheWireUnchanged() {
        let errors: [TenderError] = [.notAgreed("say yes"), .idempotencyConflict("other"), .storeBusy("busy"), .ledgerTampered("record 3")]
        for error in errors {
            #expect(TenderError(brokerBody: .object(error.brokerBody)) == error)
        }
        #expect(TenderError(brokerBody: .object([("code", .string("root"))])) == .internal("the broker answered an unknown error \"root\": the broker answered an error without a message"))
    }

    @Test func answersRoundTrip() throws {
        for answer in [
            Answer(parameter: "payee", kind: .choose("a")), Answer(parameter: "x", kind: .confirm(false)),
            Answer(parameter: "currencyAmount", kind: .value(.object([("amount", .string("5")), ("currency", .string("USD"))]))),
        ] {
            #expect(try Answer(json: answer.json) == answer)
        }
    }

    @Test func wireValuesRoundTripAndRefuseExtras() throws {
        let key = StoredPublicKey(keyID: "kid", publicKey: Array(repeating: 7, count: 32), createdAtMilliseconds: 12, isActive: true)
        #expect(try BrokerWire.publicKey(BrokerWire.json(key)) == key)
        let entry = AuditEntry(id: 1, atMilliseconds: 2, user: "u", event: "denied", intent: "send_payment", detail: "d")
        #expect(try BrokerWire.auditEntry(BrokerWire.json(entry)) == entry)
        let record = PaymentRecord(json: "{}", jws: "a.b.c", sequence: 4, idempotencyKey: "k")
        #expect(try BrokerWire.record(BrokerWire.json(record)) == record)
        #expect(throws: TenderError.self) { try BrokerWire.ledgerEntry(.object([("sequence", .number("-1")), ("jws", .string("x"))])) }
        #expect(throws: TenderError.self) { try BrokerWire.publicKey(.object([("keyID", .string("k")), ("publicKey", .string("AA"))])) }
    }

    @Test func aReportKeepsTheRecordsSignedAgain() throws {
        var report = LedgerVerifier.Report(count: 7, headHash: "h", keyIDs: ["k"])
        report.resigned = [3, 5]
        #expect(try BrokerWire.report(report.json) == report)
        let forged = JSONValue.object([("valid", .bool(true)), ("records", .number("7")), ("resigned", .array([.number("-2")]))])
        #expect(throws: TenderError.self) { try BrokerWire.report(forged) }
    }

    @Test func aClientPolicyOnlyTightens() throws {
        var root = AuthenticationPolicy()
        root.reuseSeconds = 60
        root.reuseCount = 3
        root.aboveAmount = ["USD": try Money(decimal: "100", currency: Currency(code: "USD"))]
        let open = try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": [], "reuseSeconds": 300, "reuseCount": 5}"#))
        let merged = root.tightened(by: open)
        #expect(merged.restrictedIntents == AuthenticationPolicy.moneyMovingIntents)
        #expect(merged.reuseSeconds == 60 && merged.reuseCount == 3)
        #expect(merged.aboveAmount == root.aboveAmount)
        let stricter = try AuthenticationPolicy(json: try JSONParser.parse(#"{"aboveAmount": {"EUR": "5"}, "newPayee": true}"#))
        let both = root.tightened(by: stricter)
        #expect(both.newPayee)
        // No currency in both rules: every amount is restricted.
        #expect(both.aboveAmount.count == 1 && both.aboveAmount["USD"]?.minorUnits == 0)
    }
}
