// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct DialogSessionTests {
    private func result(_ results: [ParameterResolution], _ parameter: String) -> ResolutionResult? {
        results.first { $0.parameter == parameter }?.result
    }

    @Test func twoJohnsThenThreeHandlesThenPaid() throws {
        let (engine, directory, ledger) = try Fixtures.engine()
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"John"},"currencyAmount":{"amount":"50","currency":"USD"}}"#, engine: engine)

        var results = try session.resolve()
        #expect(result(results, "payee") == .disambiguation(prompt: "person", options: [
            ResolutionOption(id: "john-appleseed", label: "John Appleseed"), ResolutionOption(id: "john-baily", label: "John Baily"),
        ]))
        #expect(result(results, "currencyAmount") == .success(try JSONParser.parse(#"{"amount":"50.00","currency":"USD"}"#)))
        #expect(result(results, "note") == .notRequired)

        try session.answer(Answer(parameter: "payee", kind: .choose("john-baily")))
        results = try session.resolve()
        #expect(result(results, "payee") == .disambiguation(prompt: "handle", options: [
            ResolutionOption(id: "jb-home", label: "home"), ResolutionOption(id: "jb-mobile", label: "mobile"),
            ResolutionOption(id: "jb-work", label: "work"),
        ]))
        // The chosen person is kept: the next resolve does not ask about people again.
        try session.answer(Answer(parameter: "payee", kind: .choose("jb-mobile")))
        results = try session.resolve()
        #expect(results.allSatisfy { $0.result.isResolved })

        let (code, response) = try session.confirm()
        #expect(code == .ready)
        #expect(response["account"]?["id"] == .string("checking"))
        let outcome = try session.handle()
        let record = outcome.record
        #expect(outcome.code == .success)
        let recordJSON = try JSONParser.parse(try #require(record).json)
        #expect(recordJSON["payee"]?["handle"]?["label"] == .string("mobile"))
        #expect(recordJSON["currencyAmount"]?["amount"] == .string("50.00"))
        #expect(recordJSON["status"] == .string("completed"))
        #expect(directory.balance("checking") == 95_000)

        // Handling again pays nothing and returns the same record.
        let again = try session.handle()
        #expect(again.code == .success && again.record == record)
        #expect(directory.balance("checking") == 95_000)
        #expect(try ledger.records().count == 1)
        #expect(throws: TenderError.self) { try session.resolve() }
    }

    @Test func handleLabelInTheIntentPicksTheHandle() throws {
        let (engine, _, _) = try Fixtures.engine()
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"john-baily","handle":"Work"},"currencyAmount":{"amount":"5","currency":"USD"}}"#,
            engine: engine)
        guard case let .success(value) = result(try session.resolve(), "payee") else { Issue.record("payee unresolved"); return }
        #expect(value["handle"]?["id"] == .string("jb-work"))
    }

    @Test func missingValuesAreAskedForAndCanBeSupplied() throws {
        let (engine, _, _) = try Fixtures.engine()
        let session = try Fixtures.session(#"{"intent":"send_payment"}"#, engine: engine)
        let results = try session.resolve()
        #expect(result(results, "payee") == .needsValue)
        #expect(result(results, "currencyAmount") == .needsValue)
        try session.answer(Answer(parameter: "payee", kind: .value(try JSONParser.parse(#"{"name":"Tim"}"#))))
        try session.answer(Answer(parameter: "currencyAmount", kind: .value(try JSONParser.parse(#"{"amount":"20","currency":"USD"}"#))))
        #expect(try session.resolve().allSatisfy { $0.result.isResolved })
    }

    @Test func theMostRecentPayeeIsSuggestedForConfirmation() throws {
        let (engine, _, _) = try Fixtures.engine()
        let first = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"Tim Cook"},"currencyAmount":{"amount":"5","currency":"USD"}}"#, engine: engine)
        _ = try first.resolve()
        _ = try first.confirm()
        _ = try first.handle()

        let session = try Fixtures.session(#"{"intent":"send_payment","currencyAmount":{"amount":"5","currency":"USD"}}"#, engine: engine)
        guard case let .confirmationRequired(value) = result(try session.resolve(), "payee") else {
            Issue.record("expected confirmationRequired"); return
        }
        #expect(value["id"] == .string("tim-cook"))
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "payee", kind: .choose("tim-cook"))) }
        try session.answer(Answer(parameter: "payee", kind: .confirm(false)))
        #expect(result(try session.resolve(), "payee") == .needsValue)

        let accepting = try Fixtures.session(#"{"intent":"send_payment","currencyAmount":{"amount":"5","currency":"USD"}}"#, engine: engine)
        _ = try accepting.resolve()
        try accepting.answer(Answer(parameter: "payee", kind: .confirm(true)))
        guard case .success = result(try accepting.resolve(), "payee") else { Issue.record("expected success"); return }
    }

    @Test func unsupportedPayees() throws {
        let (engine, _, _) = try Fixtures.engine()
        let stranger = try Fixtures.session(#"{"intent":"send_payment","payee":{"name":"Craig"}}"#, engine: engine)
        #expect(result(try stranger.resolve(), "payee") == .unsupported(reason: "noMatchingContact"))
        let hermit = try Fixtures.session(#"{"intent":"send_payment","payee":{"name":"Hermit"}}"#, engine: engine)
        #expect(result(try hermit.resolve(), "payee") == .unsupported(reason: "noValidHandle"))
        let unknownID = try Fixtures.session(#"{"intent":"send_payment","payee":{"id":"ghost"}}"#, engine: engine)
        #expect(result(try unknownID.resolve(), "payee") == .unsupported(reason: "noMatchingContact"))
    }

    @Test(arguments: [
        ("0.50", "USD", "paymentsAmountBelowMinimum", ResponseCode.failurePaymentsAmountBelowMinimum),
        ("10000.01", "USD", "paymentsAmountAboveMaximum", .failurePaymentsAmountAboveMaximum),
        ("10", "SEK", "paymentsCurrencyUnsupported", .failurePaymentsCurrencyUnsupported),
    ])
    func amountLimits(amount: String, currency: String, reason: String, code: ResponseCode) throws {
        let (engine, _, _) = try Fixtures.engine()
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"Tim"},"currencyAmount":{"amount":"\#(amount)","currency":"\#(currency)"}}"#,
            engine: engine)
        #expect(result(try session.resolve(), "currencyAmount") == .unsupported(reason: reason))
        #expect(try session.confirm().code == code)
        #expect(throws: TenderError.self) { try session.handle() }
    }

    @Test func confirmFailsWithoutFundsOrAccount() throws {
        let usdAndEUR = try PaymentLimits(json: try JSONParser.parse(
            #"{"USD":{"minimum":"1","maximum":"5000"},"EUR":{"minimum":"1","maximum":"5000"}}"#))
        let (engine, directory, ledger) = try Fixtures.engine(limits: usdAndEUR)
        let tooMuch = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"Tim"},"currencyAmount":{"amount":"1000.01","currency":"USD"}}"#, engine: engine)
        #expect(try tooMuch.confirm().code == .failureInsufficientFunds)
        let euros = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"Tim"},"currencyAmount":{"amount":"10","currency":"EUR"}}"#, engine: engine)
        #expect(try euros.confirm().code == .failureNoBankAccount)

        // Funds that leave between confirm and handle: handle fails and pays nothing.
        let racing = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"Tim"},"currencyAmount":{"amount":"900","currency":"USD"}}"#, engine: engine)
        #expect(try racing.confirm().code == .ready)
        directory.setBalance("checking", minorUnits: 100)
        #expect(try racing.handle().code == .failureInsufficientFunds)
        #expect(try ledger.records().isEmpty)
        #expect(throws: TenderError.self) { try racing.handle() }
    }

    @Test func answersMustMatchTheQuestions() throws {
        let (engine, _, _) = try Fixtures.engine()
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"name":"John"},"currencyAmount":{"amount":"50","currency":"USD"}}"#, engine: engine)
        #expect(throws: TenderError.notAsked("no open question about \"payee\"; call resolve first")) {
            try session.answer(Answer(parameter: "payee", kind: .choose("john-baily")))
        }
        _ = try session.resolve()
        #expect(throws: TenderError.unknownOption("\"tim-cook\" was not one of the options offered")) {
            try session.answer(Answer(parameter: "payee", kind: .choose("tim-cook")))
        }
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "currencyAmount", kind: .choose("x"))) }
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "note", kind: .value(.string("hi")))) }
        // A bad value leaves the question open and the session unchanged.
        let unknown = try Fixtures.session(#"{"intent":"send_payment","payee":{"name":"Tim"}}"#, engine: engine)
        _ = try unknown.resolve()
        #expect(throws: TenderError.self) {
            try unknown.answer(Answer(parameter: "currencyAmount", kind: .value(try JSONParser.parse(#"{"amount":"-1","currency":"USD"}"#))))
        }
        try unknown.answer(Answer(parameter: "currencyAmount", kind: .value(try JSONParser.parse(#"{"amount":"1","currency":"USD"}"#))))
        #expect(try unknown.resolve().allSatisfy { $0.result.isResolved })
    }

    @Test func confirmBeforeResolutionIsTheWrongState() throws {
        let (engine, _, _) = try Fixtures.engine()
        let session = try Fixtures.session(#"{"intent":"send_payment","payee":{"name":"John"}}"#, engine: engine)
        #expect(throws: TenderError.self) { try session.confirm() }
        #expect(throws: TenderError.self) { try session.handle() }
    }

    @Test func theSameKeyWithOtherParametersIsAConflict() throws {
        let (engine, _, ledger) = try Fixtures.engine()
        func pay(_ amount: String) throws -> DialogSession {
            let session = try Fixtures.session(
                #"{"intent":"send_payment","payee":{"name":"Tim"},"currencyAmount":{"amount":"\#(amount)","currency":"USD"},"idempotencyKey":"k-1"}"#,
                engine: engine)
            _ = try session.confirm()
            return session
        }
        let first = try pay("10")
        let record = try first.handle().record
        #expect(try pay("10").handle().record == record)
        #expect(throws: TenderError.self) { try pay("11").handle() }
        #expect(try ledger.records().count == 1)
    }

    @Test(arguments: [
        #"{"intent":"send_payment","payee":{"name":"a","id":"b"}}"#,
        #"{"intent":"send_payment","payee":{}}"#,
        #"{"intent":"send_payment","payee":{"name":"   "}}"#,
        #"{"intent":"send_payment","note":7}"#,
        #"{"intent":"send_payment","idempotencyKey":"has space"}"#,
        #"{"intent":"send_payment","bogus":true}"#,
        #"{"payee":{"name":"x"}}"#,
        #"[]"#,
    ])
    func malformedIntentsAreRefused(json: String) throws {
        let (engine, _, _) = try Fixtures.engine()
        #expect(throws: TenderError.self) { try Fixtures.session(json, engine: engine) }
    }

    @Test func unknownIntentsAreNamedAsSuch() throws {
        let (engine, _, _) = try Fixtures.engine()
        #expect(throws: TenderError.self) {
            try Fixtures.session(#"{"intent":"freeze_card"}"#, engine: engine)
        }
    }
}
