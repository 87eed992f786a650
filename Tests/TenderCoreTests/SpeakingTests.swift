// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// The sentences Tender says (docs/dialog.md, "What to say"): every resolution result of every intent,
/// built-in and the two examples of examples/intents, in English and Spanish, is short enough to speak
/// and holds no JSON, id, parameter name or reason code; confirmations and outcomes in the person's language.
@Suite struct SpeakingTests {
    /// The shipped example definitions (examples/intents), loaded as a host loads them.
    static func examples() throws -> CustomIntentCatalog {
        let folder = String(#filePath.split(separator: "/Tests/").first!) + "/examples/intents/"
        let catalog = CustomIntentCatalog()
        for name in ["expense.json", "round-up.json"] {
            _ = try catalog.add(try JSONParser.parse(try #require(SourceFile.read(folder + name))))
        }
        catalog.setHost(BankHost())
        return catalog
    }

    static func engine(_ locale: SpeechLanguage = .english, agreement: Bool = false) throws -> (Engine, FakeDirectory, FakeLedger) {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(DomainFixtures.directoryJSON)))
        let ledger = FakeLedger(directory: directory)
        var options = DialogOptions()
        options.requireAgreement = agreement
        options.language = locale
        let engine = Engine(directory: directory, ledger: ledger, dialog: options, customIntents: try examples(), today: { Fixtures.today })
        return (engine, directory, ledger)
    }

    /// Words no sentence may hold: parameter names, reason codes, response codes, intent names, the fixtures' ids.
    static let internalWords: [String] = {
        var words = Set<String>()
        for schema in IntentSchema.all {
            words.insert(schema.name)
            for (name, _) in schema.parameters where name.contains(where: \.isUppercase) { words.insert(name) }
        }
        words.formUnion(UnsupportedReason.allCases.map(\.rawValue))
        words.formUnion(ResponseCode.allCases.map(\.name).filter { $0.contains(where: \.isUppercase) })
        words.formUnion(["unknownExpense", "round_up_savings", "fromAccount", "amountLeft", "amountDue", "minimumDue", "carLoan"])
        words.formUnion(["john-baily", "john-appleseed", "jb-home", "jb-mobile", "ec-main", "ec-lake", "phil-1", "b-main", "null"])
        return words.sorted()
    }()

    /// Checks one sentence: present, at most 160 characters, no JSON, no internal word, no placeholder.
    static func check(_ sentence: String?, _ what: @autoclosure () -> String) {
        guard let sentence else {
            Issue.record("no sentence for \(what())")
            return
        }
        #expect(!sentence.isEmpty && sentence.count <= Speaker.maxLength, "\(what()): \(sentence.count) characters: \(sentence)")
        for mark in ["{", "}", "[", "]", "\"", "${", "_", "\\"] {
            #expect(!sentence.contains(mark), "\(what()): \"\(mark)\" in \(sentence)")
        }
        let tokens = Set(sentence.split { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }.map(String.init))
        for word in internalWords where tokens.contains(word) || (word.contains(where: \.isUppercase) && sentence.contains(word)) {
            Issue.record("\(what()): internal word \"\(word)\" in \(sentence)")
        }
    }

    // MARK: every result of every intent

    /// Values a person may have said, to be named in refusals (a long one among them).
    static func saidValue(_ kind: ParameterKind?) -> ParameterValue? {
        switch kind {
        case .person?: return .person(try! PersonQuery(json: try! JSONParser.parse(#"{"name": "Maximiliano Bartholomew Fitzgerald-Montgomery the Third of Westphalia"}"#), field: "x"))
        case .account?: return .account(try! AccountQuery(json: try! JSONParser.parse(#"{"nickname": "Vacation"}"#), field: "x"))
        case .billPayee?: return .billPayee(try! BillPayeeQuery(json: try! JSONParser.parse(#"{"name": "Gas Company"}"#), field: "x"))
        case .currencyAmount?: return .money(try! Money(decimal: "20000", currency: .usDollar))
        case .transactionAmount?: return .transactionAmount(try! TransactionAmount(json: try! JSONParser.parse(#"{"amount": {"amount": "0.001", "currency": "BHD"}}"#), field: "x"))
        case .billType?, .paymentStatus?, .accountType?, .balanceType?, .choice?: return .phrase("yacht")
        case .text?, .note?, .integer?, .decimal?: return .text("yacht")
        default: return nil
        }
    }

    /// Every result a parameter of `schema` may answer, with options long and many enough to be cut short.
    static func results(_ parameter: String, _ kind: ParameterKind?) -> [ResolutionResult] {
        let many = (1...12).map { ResolutionOption(id: "id-\($0)", label: "Somebody With A Rather Long Name Number \($0)") }
        let handles = ["home", "mobile", "work", "iPhone"].enumerated().map { ResolutionOption(id: "h-\($0.offset)", label: $0.element) }
        let payees = [ResolutionOption(id: "ec-main", label: "Electric Company, 12 Main Street"), ResolutionOption(id: "ec-lake", label: "Electric Company, 4 Lake Road")]
        let accounts = [ResolutionOption(id: "checking", label: "Checking"), ResolutionOption(id: "nest", label: "saving")]
        var results: [ResolutionResult] = [.needsValue, .notRequired]
        for prompt in ["person", "handle", "billPayee", "account", parameter] {
            for options in [many, handles, payees, accounts] { results.append(.disambiguation(prompt: prompt, options: options)) }
        }
        let values = [
            #"{"id": "john-baily", "displayName": "John Baily"}"#, #"{"id": "savings", "nickname": "Savings", "type": "saving"}"#,
            #"{"id": "nest", "type": "saving"}"#, #"{"id": "ec-main", "organizationName": "Electric Company", "nickname": "12 Main Street"}"#,
            #"{"amount": "84.20", "currency": "USD"}"#, #"{"amountType": "amountDue", "amount": {"amount": "84.20", "currency": "USD"}}"#,
            #""carLoan""#, #""2026-12-05""#, "true",
        ]
        results += values.map { .confirmationRequired(try! JSONParser.parse($0)) }
        results += (UnsupportedReason.allCases.map(\.rawValue) + ["unknownExpense", "someReasonOfTheHost"]).map { .unsupported(reason: $0) }
        return results
    }

    @Test func everyResultOfEveryIntentIsSpeakableInBothLanguages() throws {
        let (engine, _, _) = try Self.engine()
        let schemas = IntentSchema.all + engine.customIntents.definitions.map(\.schema)
        #expect(schemas.count == 9)
        let help = (1...10).map { ResolutionOption(id: "id-\($0)", label: "A Long Account Nickname \($0)") }
        var count = 0
        for language in SpeechLanguage.allCases {
            for schema in schemas {
                for (parameter, kind) in schema.parameters {
                    for said in [nil, Self.saidValue(kind)] {
                        var intent = Intent(schema: schema)
                        intent.values[parameter] = said
                        let speaker = Speaker(language: language, intent: intent, today: Fixtures.today, limits: engine.limits)
                        for result in Self.results(parameter, kind) {
                            for offered in [[], help] {
                                var resolution = ParameterResolution(parameter: parameter, result: result)
                                resolution.help = offered
                                let say = speaker.say(resolution, help: offered)
                                if result.isResolved {
                                    #expect(say == nil)
                                    continue
                                }
                                Self.check(say, "\(language) \(schema.name).\(parameter) \(result.name) \(result)")
                                if case let .disambiguation(prompt, options) = result {
                                    for option in options { Self.check(speaker.optionWords(option, prompt: prompt), "option \(option.label)") }
                                }
                                count += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(count > 5000)
    }

    @Test func everyFailureDenialAndEndingIsSpeakable() {
        for language in SpeechLanguage.allCases {
            let table = language.sentences
            for code in ResponseCode.allCases { Self.check(table.failed(code, account: "Checking"), "\(language) \(code.name)") }
            for denial in [AuthenticationDenial.wrongCredentials("PAM: x"), .accountUnavailable("x"), .cancelled("x"), .throttled(retryAfterSeconds: 30), .systemError("x")] {
                Self.check(table.notAuthenticated(denial), "\(language) \(denial.name)")
            }
            for kind in [SearchKind.bills, .accounts, .payments] {
                for count in [0, 1, 7] { Self.check(table.found(count, of: kind), "\(language) found \(count)") }
            }
            for sentence in [table.cancelled(), table.declined(), table.outOfScope(), table.notUnderstood(table.sayYesOrNo()),
                             table.notUnderstood(table.sayNumberOrName(12)), table.notUnderstood(table.sayAValue())] {
                Self.check(sentence, "\(language) ending")
            }
        }
    }

    // MARK: whole dialogs

    /// Plays `intent` to its end in `language`, answering each question with the first option, yes or
    /// `values`; answers every sentence said, in order.
    private func play(_ intent: String, _ language: SpeechLanguage, values: [String: String] = [:]) throws -> [String] {
        let (engine, _, _) = try Self.engine(language)
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(intent))
        var said: [String] = []
        for _ in 0..<12 {
            let results = try session.resolve()
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            said.append(try #require(open.say))
            switch open.result {
            case let .disambiguation(_, options): try session.answer(Answer(parameter: open.parameter, kind: .choose(options[0].id)))
            case .confirmationRequired: try session.answer(Answer(parameter: open.parameter, kind: .confirm(true)))
            default:
                if let first = open.help.first, values[open.parameter] == nil {
                    try session.answer(Answer(parameter: open.parameter, kind: .choose(first.id)))
                } else {
                    let text = try #require(values[open.parameter], "\(open.parameter) asked: \(open.say ?? "")")
                    try session.answer(Answer(parameter: open.parameter, kind: .value(try JSONParser.parse(text))))
                }
            }
        }
        let (code, response) = try session.confirm()
        if let say = response["say"]?.stringValue { said.append(say) }
        guard code == .ready else { return said }
        if session.confirmationQuestion != nil { try session.agree(true) }
        let outcome = try session.handle()
        said.append(try #require(outcome.say, "no outcome sentence for \(intent)"))
        #expect(try outcome.document()["say"]?.stringValue == outcome.say)
        return said
    }

    static let dialogs: [(intent: String, values: [String: String])] = [
        (#"{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#, [:]),
        (#"{"intent": "send_payment", "payee": {"name": "Zed"}}"#, ["currencyAmount": #"{"amount": "1250.5", "currency": "USD"}"#]),
        (#"{"intent": "send_payment", "payee": {"name": "Jon Baily"}, "currencyAmount": {"amount": "20000", "currency": "USD"}}"#,
         ["currencyAmount": #"{"amount": "20", "currency": "USD"}"#]),
        (#"{"intent": "request_payment", "payer": {"name": "Phil"}, "currencyAmount": {"amount": "12.5", "currency": "USD"}}"#, [:]),
        (#"{"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}"#, [:]),
        (#"{"intent": "pay_bill", "billPayee": {"name": "Electric Company", "nickname": "12 Main Street"}, "transactionScheduledDate": "2026-12-05", "fromAccount": {"nickname": "vacation"}}"#, [:]),
        (#"{"intent": "transfer_money", "fromAccount": {"nickname": "vacation"}, "toAccount": {"nickname": "savings"}, "transactionAmount": {"amount": {"amount": "20", "currency": "USD"}}}"#, [:]),
        (#"{"intent": "transfer_money", "toAccount": {"nickname": "savings"}}"#,
         ["fromAccount": #"{"id": "checking"}"#, "transactionAmount": #"{"amount": {"amount": "20", "currency": "USD"}}"#]),
        (#"{"intent": "search_for_bills", "status": "unpaid"}"#, [:]),
        (#"{"intent": "search_for_accounts", "accountNickname": "NestEgg"}"#, [:]),
        (#"{"intent": "search_for_payments", "party": {"name": "John Baily"}}"#, [:]),
        (#"{"intent": "expense", "expense": "coffee"}"#, [:]),
        (#"{"intent": "expense", "expense": "yacht"}"#, [:]),
        (#"{"intent": "expense"}"#, ["expense": #""vacation""#]),
        (#"{"intent": "round_up_savings", "amount": {"amount": "5", "currency": "USD"}, "fromAccount": {"nickname": "vacation"}}"#, [:]),
        (#"{"intent": "round_up_savings"}"#, ["amount": #"{"amount": "5", "currency": "USD"}"#]),
    ]

    @Test func wholeDialogsOfEveryIntentSpeakInBothLanguages() throws {
        for language in SpeechLanguage.allCases {
            for (intent, values) in Self.dialogs {
                let said = try play(intent, language, values: values)
                #expect(!said.isEmpty, "\(intent)")
                for sentence in said { Self.check(sentence, "\(language) \(intent)") }
            }
        }
    }

    @Test func theSendOfTheIssueInBothLanguages() throws {
        let send = #"{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#
        #expect(try play(send, .english) == [
            "Which person: John Appleseed or John Baily?", "Send $50 to John Appleseed from Checking?", "Sent $50 to John Appleseed.",
        ])
        // The request's language wins over the engine's locale.
        let spanish = #"{"intent": "send_payment", "language": "es", "payee": {"id": "john-baily", "handle": "jb-mobile"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#
        #expect(try play(spanish, .english) == ["¿Envío 50 $ a John Baily desde Checking?", "Enviaste 50 $ a John Baily."])
        let bill = #"{"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}"#
        #expect(try play(bill, .spanish) == [
            "¿A quién: Electric Company (12 Main Street) o Electric Company (4 Lake Road)?", "¿Pago el importe pendiente, 84,20 $?",
            "¿Pago 84,20 $ a Electric Company desde Checking?", "Pagaste 84,20 $ a Electric Company.",
        ])
    }

    @Test func aSearchSaysWhatItFound() throws {
        #expect(try play(#"{"intent": "search_for_accounts", "accountNickname": "NestEgg"}"#, .english) == ["NestEgg has $9,000."])
        #expect(try play(#"{"intent": "search_for_accounts", "accountNickname": "NestEgg"}"#, .spanish) == ["NestEgg tiene 9000 $."])
        #expect(try play(#"{"intent": "search_for_bills", "status": "unpaid"}"#, .english) == [
            "I found 2 bills. Electric Company: $61.75 due November 28 and Electric Company: $84.20 due November 30.",
        ])
        #expect(try play(#"{"intent": "search_for_payments"}"#, .spanish) == ["No encontré ningún pago así."])
    }

    @Test func amountsAndDaysInTheLanguagesWay() throws {
        let amount = try Money(decimal: "12500.5", currency: .usDollar)
        #expect(SpokenFormat.money(amount, .english) == "$12,500.50")
        #expect(SpokenFormat.money(amount, .spanish) == "12.500,50 $")
        #expect(SpokenFormat.money(try Money(decimal: "1250", currency: .usDollar), .spanish) == "1250 $")
        #expect(SpokenFormat.money(try Money(decimal: "5000", currency: try Currency(code: "JPY")), .english) == "5,000 JPY")
        let day = try LocalDate(year: 2026, month: 12, day: 5)
        #expect(SpokenFormat.day(day, .english, today: Fixtures.today) == "December 5")
        #expect(SpokenFormat.day(day, .spanish, today: try LocalDate(year: 2025, month: 1, day: 1)) == "5 de diciembre de 2026")
    }

    // MARK: help where a value is refused

    @Test func aRefusedAccountOffersTheAccountsThereAre() throws {
        let (engine, directory, _) = try Self.engine()
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(
            #"{"intent": "transfer_money", "fromAccount": {"nickname": "vacation"}, "toAccount": {"nickname": "savings"}, "transactionAmount": {"amount": {"amount": "20", "currency": "USD"}}}"#))
        let open = try #require(try session.resolve().first { $0.parameter == "fromAccount" })
        #expect(open.result == .unsupported(reason: "noMatchingAccount"))
        // Savings is the other account of the transfer: not offered.
        #expect(open.help.map(\.id) == ["checking", "safe", "nest", "miles"])
        #expect(open.say == "You have no account called vacation. You could say Checking, Safe-to-Spend, NestEgg or Travel Card.")
        #expect(open.json["options"]?.arrayValue?.count == 4)
        // One of them answers it, by choice or by the person's words.
        #expect(try session.reply("NestEgg") == .answer(Answer(parameter: "fromAccount", kind: .choose("nest"))))
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
        _ = try session.confirm()
        _ = try session.handle()
        #expect(directory.balance("nest") == 898_000)
        // The value as said, without the words that name nothing ("de vacaciones" → "vacaciones").
        let spanish = try DialogSession(engine: engine, json: try JSONParser.parse(
            #"{"intent": "transfer_money", "language": "es", "fromAccount": {"nickname": "de vacaciones"}, "toAccount": {"id": "savings"}}"#))
        #expect(try spanish.resolve().first?.say
            == "No tienes ninguna cuenta llamada vacaciones. Puedes decir Checking, Safe-to-Spend, NestEgg o Travel Card.")
    }

    @Test func aRefusedCustomValueOffersTheHostsValues() throws {
        let (engine, _, _) = try Self.engine(.spanish)
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent": "expense", "expense": "yacht"}"#))
        let open = try #require(try session.resolve().first)
        #expect(open.say == "No tienes ningún gasto llamado yacht. Puedes decir vacation, coffee shop o coffee beans.")  // the definition's Spanish words
        #expect(throws: TenderError.self) { try session.answer(Answer(parameter: "expense", kind: .choose("groceries"))) }
        try session.answer(Answer(parameter: "expense", kind: .choose("vacation")))
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
    }

    // MARK: definitions in several languages

    @Test func aDefinitionSpeaksTheRequestsLanguage() throws {
        let document = #"""
            {"intents": [{"name": "tip", "category": "information",
              "parameters": [{"name": "pot", "type": "string", "required": true, "values": {"list": ["coffee", "lunch"]},
                "prompts": {"needsValue": {"en": "Which pot?", "es": "¿Qué bote?"}},
                "unsupportedReasons": {"unknownPot": {"en": "No pot ${pot}.", "es": "No hay bote ${pot}."}}}],
              "shortcutTypes": [{"parameters": ["pot"], "title": {"en": "Tip ${pot}", "es": "Propina ${pot}"}}],
              "responses": {"success": {"en": "Done.", "es": "Hecho."}, "failure": "Sorry."}}]}
            """#
        let catalog = CustomIntentCatalog()
        _ = try catalog.add(try JSONParser.parse(document))
        catalog.setHost(BankHost())
        let (plain, _, _) = try Fixtures.engine()
        let engine = Engine(directory: plain.directory, ledger: plain.ledger, dialog: Fixtures.personAgrees, customIntents: catalog, today: { Fixtures.today })
        for (language, asked, refused) in [("en", "Which pot?", "No pot tea. You could say coffee or lunch."), ("es", "¿Qué bote?", "No hay bote tea. Puedes decir coffee o lunch.")] {
            let empty = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent": "tip", "language": "\#(language)"}"#))
            #expect(try empty.resolve().first?.say == asked)
            let wrong = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent": "tip", "pot": "tea", "language": "\#(language)"}"#))
            #expect(try wrong.resolve().first?.say == refused)
        }
        let template = try MessageTemplate(json: try JSONParser.parse(#"{"es": "Hola ${a}", "en": "Hi ${b}"}"#), field: "t")
        #expect(template.text == "Hi ${b}" && template.placeholders == ["a", "b"])
        #expect(template.render(["a": "x"], language: "es") == "Hola x")
        #expect(throws: TenderError.self) { try MessageTemplate(json: try JSONParser.parse(#"{"EN": "Hi"}"#), field: "t") }
        #expect(throws: TenderError.self) { try MessageTemplate(json: try JSONParser.parse(#"{"es": "Hola ${"}"#), field: "t") }
    }

    @Test func theLocaleSettingChoosesTheDefaultLanguage() throws {
        let spanish = try EngineConfiguration(json: try JSONParser.parse(#"{"home": "/h", "locale": "es-MX"}"#))
        #expect(spanish.dialog.language == .spanish)
        #expect(try EngineConfiguration(json: try JSONParser.parse(#"{"home": "/h"}"#)).dialog.language == .english)
        #expect(throws: TenderError.self) { try EngineConfiguration(json: try JSONParser.parse(#"{"home": "/h", "locale": "fr-FR"}"#)) }
        let (engine, _, _) = try Self.engine(.spanish)
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(#"{"intent": "send_payment"}"#))
        #expect(try session.resolve().first?.say == "¿A quién le pago?")
    }
}
