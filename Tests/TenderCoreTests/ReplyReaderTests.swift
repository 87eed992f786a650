// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore
import PropertyBased

/// Replies in the person's language (``DialogSession/reply(_:)``, ``ReplyReader``): yes and no,
/// positions, whole-word names, never a fragment, and the words that end a dialog with nothing paid.
@Suite struct ReplyReaderTests {
    private func session(_ intent: String, _ language: SpeechLanguage = .english, agreement: Bool = true) throws -> (DialogSession, FakeDirectory, FakeLedger) {
        let (engine, directory, ledger) = try SpeakingTests.engine(language, agreement: agreement)
        return (try DialogSession(engine: engine, json: try JSONParser.parse(intent)), directory, ledger)
    }

    static let johns = #"{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#

    @Test func yesAndNoInBothLanguages() {
        for yes in ["sí", "Sí.", "si", "vale", "claro", "¡Claro que sí!", "de acuerdo", "yes", "yeah", "OK"] {
            #expect(ReplyReader.agreement(yes, .spanish) == .agree(true), "\(yes)")
        }
        for no in ["no", "No.", "no gracias"] { #expect(ReplyReader.agreement(no, .spanish) == .agree(false), "\(no)") }
        #expect(ReplyReader.agreement("y", .english) == .agree(true))
        #expect(ReplyReader.agreement("nope", .english) == .agree(false))
        if case .unclear = ReplyReader.agreement("maybe", .english) {} else { Issue.record("maybe is neither yes nor no") }
    }

    @Test func theWordsThatEndADialog() {
        for word in ["cancel", "Stop", "never mind", "cancela", "olvídalo", "Olvídalo.", "déjalo"] {
            #expect(ReplyReader.isCancel(word), "\(word)")
            #expect(ReplyReader.agreement(word, .english) == .cancel)
        }
        #expect(!ReplyReader.isCancel("John"))
    }

    @Test func positionsNamesAndNeverAFragment() throws {
        let (session, _, _) = try session(Self.johns)
        let open = try #require(try session.resolve().first)
        func pick(_ said: String, _ language: SpeechLanguage = .english) -> String? {
            if case let .answer(answer) = ReplyReader.read(said, for: open, offers: [], kind: .person, language: language, today: Fixtures.today),
                case let .choose(id) = answer.kind
            {
                return id
            }
            return nil
        }
        for said in ["2", "the second one", "second", "number 2", "the last one", "Baily", "john baily", "John Baily", "BAILY!"] {
            #expect(pick(said) == "john-baily", "\(said)")
        }
        #expect(pick("la segunda", .spanish) == "john-baily")
        #expect(pick("el primero", .spanish) == "john-appleseed")
        #expect(pick("the first one") == "john-appleseed")
        for said in ["y", "ly", "j", "jo", "bai", "john", "3", "0", "nobody", "yes", "the third one"] {
            #expect(pick(said) == nil, "\(said) must not choose")
        }
        // Refused with the question again, in the person's language.
        #expect(ReplyReader.read("y", for: open, offers: [], kind: .person, language: .english, today: Fixtures.today)
            == .unclear(say: "Sorry, I didn't get that. Which person: John Appleseed or John Baily?"))
    }

    @Test func theDestinationQuestionInThePersonsWords() throws {
        for (language, replies) in [
            (SpeechLanguage.english, [("to someone else", "send_payment"), ("between my own accounts", "transfer_money"), ("my own accounts", "transfer_money"),
                                      ("someone else", "send_payment"), ("the second one", "transfer_money"), ("ow", nil)]),
            (.spanish, [("a otra persona", "send_payment"), ("entre mis cuentas", "transfer_money"), ("la primera", "send_payment"), ("mis", nil)]),
        ] {
            let (session, _, _) = try session(#"{"intent": "transfer_money", "askDestination": true}"#, language)
            let open = try #require(try session.resolve().first)
            for (said, expected) in replies {
                var picked: String?
                if case let .answer(answer) = ReplyReader.read(said, for: open, offers: [], kind: .person, language: language, today: Fixtures.today),
                    case let .choose(id) = answer.kind
                {
                    picked = id
                }
                #expect(picked == expected, "\(said)")
            }
        }
    }

    @Test func aHandleByItsWholeLabelNotItsFirstLetter() throws {
        let (session, _, _) = try session(#"{"intent": "send_payment", "payee": {"id": "john-baily"}, "currencyAmount": {"amount": "5", "currency": "USD"}}"#, .spanish)
        let open = try #require(try session.resolve().first)
        #expect(open.say == "¿Qué contacto: casa o móvil?")
        #expect(try session.reply("h") == .unclear(say: "Perdona, no te entendí. ¿Qué contacto: casa o móvil?"))
        #expect(try session.reply("móvil") == .answer(Answer(parameter: "payee", kind: .choose("jb-mobile"))))
    }

    @Test func aWholeSpanishSendByReplies() throws {
        let (session, directory, ledger) = try session(Self.johns.replacingOccurrences(of: "{\"intent\"", with: "{\"language\": \"es\", \"intent\""), .english)
        var said: [String] = []
        func turn(_ reply: String) throws {
            let results = try session.resolve()
            if let open = results.first(where: { !$0.result.isResolved }) {
                said.append(try #require(open.say))
            } else {
                said.append(try #require(try session.confirm().response["say"]?.stringValue))
            }
            _ = try session.reply(reply)
        }
        try turn("la segunda")
        try turn("móvil")
        try turn("sí")
        let outcome = try session.handle()
        #expect(said == ["¿Qué persona: John Appleseed o John Baily?", "¿Qué contacto: casa o móvil?", "¿Envío 50 $ a John Baily desde Checking?"])
        #expect(outcome.say == "Enviaste 50 $ a John Baily.")
        #expect(directory.balance("checking") == 95_000)
        #expect(try ledger.records().count == 1)
    }

    @Test func cancelEndsTheDialogWithNothingPaid() throws {
        for (word, language, sentence) in [("cancel", SpeechLanguage.english, "Cancelled. Nothing was paid."), ("olvídalo", .spanish, "Cancelado. No se pagó nada.")] {
            let (session, directory, ledger) = try session(Self.johns, language)
            _ = try session.resolve()
            let reply = try session.reply(word)
            #expect(reply == .cancel)
            #expect(try JSONWriter.string(session.document(of: reply)) == #"{"reply":"cancel","say":"\#(sentence)"}"#)
            #expect(throws: TenderError.self) { try session.resolve() }
            #expect(throws: TenderError.self) { try session.handle() }
            #expect(directory.balance("checking") == 100_000)
            #expect(try ledger.records().isEmpty)
        }
        // At the question before money moves, too.
        let (session, _, ledger) = try session(#"{"intent": "send_payment", "payee": {"id": "john-appleseed"}, "currencyAmount": {"amount": "5", "currency": "USD"}}"#)
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
        #expect(try session.confirm().code == .ready)
        #expect(session.awaitedReply == "confirmation")
        #expect(try session.reply("never mind") == .cancel)
        #expect(throws: TenderError.self) { try session.handle() }
        #expect(try ledger.records().isEmpty)
    }

    @Test func aValueInWordsAndAReplyBeforeAnyQuestion() throws {
        let (session, _, _) = try session(#"{"intent": "send_payment", "payee": {"id": "john-appleseed"}}"#)
        #expect(throws: TenderError.self) { try session.reply("yes") }
        #expect(try session.resolve().first { !$0.result.isResolved }?.say == "How much?")
        #expect(try session.reply("20 dollars") == .answer(Answer(parameter: "currencyAmount", kind: .value(try JSONParser.parse(#"{"amount":"20.00","currency":"USD"}"#)))))
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
    }
}

/// Random replies to random turns: a reply never picks an option with a fragment, never pays, and
/// after "cancel" nothing can be paid; no reply fails with anything but a state error.
@Suite struct ReplyPropertyTests {
    static let words = [
        "y", "ly", "j", "jo", "w", "m", "h", "yes", "sí", "no", "vale", "nope", "2", "0", "99", "the second one", "la segunda", "last",
        "baily", "john", "John Baily", "appleseed", "mobile", "móvil", "home", "casa", "20 dollars", "{", "\"x\"", "cancel", "olvídalo",
        "stop", "maybe", "🙂", "", "   ", "Baily!", "john appleseed baily",
    ]

    @Test func randomRepliesKeepTheInvariants() async {
        let replies = Gen.element(of: Self.words).compactMap { $0 }.array(of: 1...12)
        await propertyCheck(count: 300, input: Gen.int(in: 0...1), replies) { language, replies in
            try Self.play(language == 0 ? .english : .spanish, replies)
        }
    }

    static func play(_ language: SpeechLanguage, _ replies: [String]) throws {
        let (engine, directory, ledger) = try SpeakingTests.engine(language, agreement: true)
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(ReplyReaderTests.johns))
        var cancelled = false
        for said in replies {
            do {
                var results = try session.resolve()
                if results.allSatisfy(\.result.isResolved), session.awaitedReply != "confirmation" { _ = try session.confirm() }
                results = results.filter { !$0.result.isResolved }
                let reply = try session.reply(said)
                if case let .answer(answer) = reply, case .choose = answer.kind {
                    let letters = said.filter(\.isLetter).count
                    #expect(letters >= 3 || Int(said) != nil || said.contains("segunda"), "\"\(said)\" chose an option")
                }
                if reply == .cancel { cancelled = true }
                if let say = session.say(reply) { #expect(say.count <= Speaker.maxLength) }
            } catch {
                switch error {
                case .wrongState, .dialogEnded: break
                default: Issue.record("\"\(said)\" failed with \(error)")
                }
            }
        }
        // Replies alone never pay: handle does, after the person's yes.
        #expect(try ledger.records().isEmpty && directory.balance("checking") == 100_000)
        if cancelled { #expect(throws: TenderError.self) { try session.handle() } }
    }
}
