// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// Plain requests to move money that do not say where it goes: accepted, and the dialog asks where
/// (``DestinationQuestion``) unless the directory can tell.
@Suite struct DestinationQuestionTests {
    let context = ParseContext(today: Fixtures.today)

    /// The three sentences of issue 31 (all refused as out of scope before the in-scope probability was summed),
    /// then sentences of the same kind written for this test (none taken from a data file).
    static let quoted = ["can you do a transfer for me", "I'd like to do a money transfer", "Could you set up a transfer?"]
    static let written = [
        "I have a transfer to make", "get a transfer started for me", "can I get a transfer going", "please start a funds transfer",
        "I'd like to transfer some cash", "could you handle a money transfer for me", "could we do a quick transfer",
        "set up a transfer of funds please",
    ]

    @Test func plainTransferRequestsStartADialog() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var refused: [String] = []
        for (n, text) in (Self.quoted + Self.written).enumerated() {
            let result = try TextParser.parse(text, context: context)
            guard let intent = result.intent, DestinationQuestion.intents.contains(result.intentName) else {
                refused.append("\(text) → \(result.intentName) \(result.score)")
                continue
            }
            // The result starts a dialog as it is.
            let session = try DialogSession(engine: engine, json: intent)
            #expect(try session.resolve().isEmpty == false)
            if n < Self.quoted.count { #expect(intent[DestinationQuestion.member] == .bool(true), "\(text)") }
        }
        print("plain transfer requests refused: \(refused)")
        #expect(refused.filter { t in Self.quoted.contains { t.hasPrefix($0) } }.isEmpty, "\(refused)")
        #expect(refused.count <= 1, "\(refused)")
    }

    @Test func theDirectoryDecidesWhereTheWordsNameSomeone() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        let own = try TextParser.parse("can you do a transfer for me into NestEgg", context: withDirectory)
        #expect(own.intentName == "transfer_money" && own.intent?[DestinationQuestion.member] == nil)
        let other = try TextParser.parse("can you do a transfer for me to John Baily", context: withDirectory)
        #expect(other.intentName == "send_payment" && other.intent?[DestinationQuestion.member] == nil)
    }

    @Test func theQuestionComesFirstAndItsAnswerChoosesTheIntent() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let json = try JSONParser.parse(
            #"{"intent": "transfer_money", "transactionAmount": {"amount": {"amount": "40", "currency": "USD"}}, "askDestination": true}"#)
        let session = try DialogSession(engine: engine, json: json)
        let first = try session.resolve()
        #expect(first.count == 1 && first[0].parameter == DestinationQuestion.parameter && first[0].message == DestinationQuestion.message)
        #expect(first[0].say == "To someone else, or between your own accounts?")
        if case let .disambiguation(_, options) = first[0].result {
            #expect(options.map(\.say) == ["To someone else", "Between your own accounts"])
        } else {
            Issue.record("the destination question is not a disambiguation: \(first[0].result)")
        }
        #expect(first[0].json["prompt"] == .string("destination") && first[0].json["message"] == .string(DestinationQuestion.message))
        #expect(throws: TenderError.self) { try session.confirm() }
        #expect(throws: TenderError.unknownOption("\"pay_bill\" was not one of the options offered")) {
            try session.answer(Answer(parameter: "intent", kind: .choose("pay_bill")))
        }
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "intent", kind: .value(.string("send_payment")))) }
        try session.answer(Answer(parameter: "intent", kind: .choose("send_payment")))
        #expect(session.intentName == "send_payment")
        let next = try session.resolve()
        #expect(next.first { $0.parameter == "currencyAmount" }?.result == .success(try JSONParser.parse(#"{"amount": "40.00", "currency": "USD"}"#)))
        #expect(next.first { $0.parameter == "payee" }?.result == .needsValue)
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "intent", kind: .choose("transfer_money"))) }

        let other = try DialogSession(engine: engine, json: try JSONParser.parse(
            #"{"intent": "send_payment", "currencyAmount": {"amount": "5", "currency": "USD"}, "note": "rent", "askDestination": true}"#))
        _ = try other.resolve()
        try other.answer(Answer(parameter: "intent", kind: .choose("transfer_money")))
        let transfer = try other.resolve()
        #expect(other.intentName == "transfer_money")
        #expect(transfer.first { $0.parameter == "transactionNote" }?.result == .success(.string("rent")))
    }

    @Test func onlyTheTwoIntentsThatMoveMoneyEitherWayMayAsk() throws {
        #expect(throws: TenderError.self) { try Intent(json: try JSONParser.parse(#"{"intent": "pay_bill", "askDestination": true}"#)) }
        #expect(throws: TenderError.self) { try Intent(json: try JSONParser.parse(#"{"intent": "send_payment", "askDestination": 1}"#)) }
        #expect(try Intent(json: try JSONParser.parse(#"{"intent": "send_payment", "askDestination": false}"#)).asksDestination == false)
    }

    /// Spanish transfers that name no one: the one seen asking nothing (a transfer between one's own accounts was
    /// taken for granted, since the Spanish training lines gave an unnamed transfer to transfer_money alone; it is
    /// now one of the generator's templates too), then sentences of the kind written for this test, in no data file.
    /// Each asks where the money goes.
    @Test func plainSpanishTransferRequestsAskWhereTheMoneyGoes() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let sentences = [
            "quiero hacer una transferencia", "¿me ayudas con una transferencia?", "me gustaría transferir algo de dinero",
            "¿puedes hacerme una transferencia?", "tengo que hacer una transferencia", "ayúdame a transferir dinero",
            "quisiera mandar una transferencia", "hay que hacer una transferencia hoy",
        ]
        var notAsked: [String] = []
        for text in sentences {
            let result = try TextParser.parse(text, context: context)
            guard let intent = result.intent, DestinationQuestion.intents.contains(result.intentName) else {
                notAsked.append("\(text) → \(result.intentName) \(result.score)")
                continue
            }
            if intent[DestinationQuestion.member] != .bool(true) {
                notAsked.append("\(text) → \(result.intentName), not asked")
                continue
            }
            let session = try DialogSession(engine: engine, json: intent)
            #expect(try session.resolve().first?.parameter == DestinationQuestion.parameter, "\(text)")
        }
        print("plain Spanish transfer requests not asked: \(notAsked)")
        #expect(!notAsked.contains { $0.hasPrefix(sentences[0] + " ") }, "\(notAsked)")
        // Measured: 7 of the 8 were not asked before the Spanish training lines split an unnamed transfer, 2 after
        // ("me gustaría transferir algo de dinero" kept as a transfer, "quisiera mandar una transferencia" as a send).
        #expect(notAsked.count <= 2, "\(notAsked)")
    }

    /// Sentences that speak of transfers or sending but ask for no payment (written for this test): none of them may
    /// start the destination question.
    @Test func unrelatedTransfersNeverAsk() throws {
        let unrelated = [
            "how do I transfer my phone number to a new carrier", "transfer the photos to my laptop", "book an airport transfer for friday",
            "I want to transfer to another university", "transfer this call to my office", "send the file to my printer",
            "can you transfer my music library to the new phone", "what is a wire transfer in physics",
            "transfiere la llamada a mi oficina", "pasa las fotos a mi computadora",
        ]
        var asked: [String] = []
        for text in unrelated {
            let result = try TextParser.parse(text, context: context)
            if result.intent?[DestinationQuestion.member] != nil { asked.append(text) }
        }
        #expect(asked.isEmpty, "\(asked)")
    }
}
