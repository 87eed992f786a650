// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct UnderstandingTests {
    let context = ParseContext(today: Fixtures.today)  // Sunday 2026-11-22

    private func amount(_ text: String) -> String? {
        AmountExtractor.find(in: TextToken.tokenize(text), defaultCurrency: .usDollar, bareNumbers: false).first.map {
            "\($0.money.decimalString) \($0.money.currency.code)"
        }
    }

    @Test(arguments: [
        ("$50", "50.00 USD"), ("50 bucks", "50.00 USD"), ("fifty dollars", "50.00 USD"), ("$1,250.50", "1250.50 USD"),
        ("twelve dollars and 5 cents", "12.05 USD"), ("€20", "20.00 EUR"), ("20 euros", "20.00 EUR"), ("one hundred and fifty bucks", "150.00 USD"),
        ("two thousand five hundred dollars", "2500.00 USD"), ("75 cents", "0.75 USD"), ("£3.5", "3.50 GBP"), ("¥500", "500 JPY"),
        ("cincuenta dólares", "50.00 USD"),
    ])
    func amountsInEveryWayPeopleSayThem(text: String, expected: String) {
        #expect(amount(text) == expected)
    }

    @Test func numbersThatAreNotAmounts() {
        #expect(amount("on the 15th") == nil)
        #expect(amount("a dollar") == nil || amount("a dollar") == "1.00 USD")
        #expect(amount("$1.999") == nil)  // more fraction digits than USD has
        #expect(amount("pay it") == nil)
    }

    @Test func datesRelativeToToday() throws {
        func day(_ text: String) -> String? { DateExtractor.find(in: TextToken.tokenize(text), today: Fixtures.today).first?.day?.description }
        func range(_ text: String) -> String? {
            DateExtractor.find(in: TextToken.tokenize(text), today: Fixtures.today).first?.range.map { "\($0.start!)..\($0.end!)" }
        }
        #expect(day("tomorrow") == "2026-11-23")
        #expect(day("yesterday") == "2026-11-21")
        #expect(day("on the 15th") == "2026-12-15")  // the 15th has passed this month
        #expect(day("on the 30th") == "2026-11-30")
        #expect(day("next friday") == "2026-11-27")
        #expect(day("last friday") == "2026-11-20")
        #expect(day("march 2") == "2027-03-02")
        #expect(range("this month") == "2026-11-01..2026-11-30")
        #expect(range("next month") == "2026-12-01..2026-12-31")
        #expect(range("last week") == "2026-11-09..2026-11-15")
        #expect(day("mañana") == "2026-11-23")
        #expect(Fixtures.today.weekday == 6)
        #expect(try LocalDate(year: 2024, month: 2, day: 29).adding(months: 12).description == "2025-02-28")
    }

    @Test func sendingAndRequestingComeFromTheModel() throws {
        let send = try TextParser.parse("Send fifty bucks to Sam for the concert tickets with Tender", context: context)
        #expect(send.intentName == "send_payment" && send.namedApp && send.source == .model)
        #expect(send.intent?["payee"]?["name"] == .string("sam"))
        #expect(send.intent?["note"] == .string("concert tickets"))
        #expect(send.score > 0 && send.score <= 1)
        let request = try TextParser.parse("ask Dana for $12.50", context: context)
        #expect(request.intentName == "request_payment" && request.intent?["payer"]?["name"] == .string("dana"))
        // No amount, or no payee, is no reason to refuse: the dialog asks for it.
        let noAmount = try TextParser.parse("send money to Sam", context: context)
        #expect(noAmount.intentName == "send_payment" && noAmount.intent?["currencyAmount"] == nil)
        for unrelated in ["send a text to John", "pay attention to the road", "request pto for march 2 and 3", "send me an uber at 5pm"] {
            #expect(try TextParser.parse(unrelated, context: context).isOutOfScope, "\(unrelated)")
        }
    }

    @Test func theModelKeepsOtherRequestsOut() throws {
        for text in ["what's the weather like in Paris", "play some jazz", "freeze my card", "change my pin", "set an alarm for 7am",
                     "tell me a joke", "how do I say thank you in french", "book a table for two"] {
            let result = try TextParser.parse(text, context: context)
            #expect(result.isOutOfScope, "\(text) → \(result.intentName)")
            #expect(result.json["parameters"] == .null)
        }
    }

    @Test func theModelFindsTheOtherIntentsAndTheirParameters() throws {
        let bill = try TextParser.parse("pay the minimum on my electric bill tomorrow", context: context)
        #expect(bill.intentName == "pay_bill")
        #expect(bill.intent?["transactionAmount"]?["amountType"] == .string("minimumDue"))
        #expect(bill.intent?["billType"] == .string("electricity"))
        #expect(bill.intent?["transactionScheduledDate"] == .string("2026-11-23"))
        let due = try TextParser.parse("what bills are due this month", context: context)
        #expect(due.intentName == "search_for_bills" && due.intent?["dueDateRange"]?["end"] == .string("2026-11-30"))
        let transfer = try TextParser.parse("transfer $200 from checking to savings", context: context)
        #expect(transfer.intentName == "transfer_money")
        // An account word is the account type said (with a directory, the person's account of that type).
        #expect(transfer.intent?["fromAccount"]?["type"] == .string("checking") && transfer.intent?["toAccount"]?["type"] == .string("saving"))
        #expect(try TextParser.parse("how many miles do i have", context: context).intent?["requestedBalanceType"] == .string("miles"))
        #expect(try TextParser.parse("show my payments to John last week", context: context).intent?["party"]?["name"] == .string("john"))
    }

    @Test func theDirectoryNamesPeopleOrganizationsAndAccounts() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        let balance = try TextParser.parse("what's my safe to spend balance", context: withDirectory)
        #expect(balance.intentName == "search_for_accounts" && balance.intent?["accountNickname"] == .string("Safe-to-Spend"))
        // The person's own account names read as their kind of account, however unlike words they are.
        for question in ["what's my Safe-to-Spend?", "how much is in NestEgg", "what do i have in my NestEgg"] {
            #expect(try TextParser.parse(question, context: withDirectory).intentName == "search_for_accounts", "\(question)")
        }
        let pay = try TextParser.parse("pay John Baily 20", context: withDirectory)  // a known person may come with a bare number
        #expect(pay.intentName == "send_payment" && pay.intent?["currencyAmount"]?["amount"] == .string("20.00"))
        // A stranger with a bare number is a send too: resolution finds no such contact and the dialog asks.
        #expect(try TextParser.parse("pay Jordan 20", context: withDirectory).intent?["payee"]?["name"] == .string("jordan"))
        let bill = try TextParser.parse("pay my electric company bill", context: withDirectory)
        #expect(bill.intent?["billPayee"]?["name"] == .string("electric company"))
    }

    @Test func shortcutsComeFirst() throws {
        var withShortcut = context
        withShortcut.shortcuts = [try Shortcut(phrase: "Coffee expense", intent: try JSONParser.parse(
            #"{"intent":"send_payment","payee":{"id":"tim"},"currencyAmount":{"amount":"4.50","currency":"USD"}}"#))]
        let result = try TextParser.parse("coffee, expense!", context: withShortcut)
        #expect(result.source == .shortcut && result.intent?["currencyAmount"]?["amount"] == .string("4.50"))
        #expect(throws: TenderError.self) { try Shortcut(phrase: "x", intent: try JSONParser.parse(#"{"intent":"order_pizza"}"#)) }
    }

    @Test func spanishForEveryIntent() throws {
        let send = try TextParser.parse("envía 50 dólares a Juan para la cena", context: context)
        #expect(send.language == "es" && send.intentName == "send_payment" && send.intent?["note"] == .string("cena"))
        let bill = try TextParser.parse("paga mi factura de la luz", context: context)
        #expect(bill.intentName == "pay_bill" && bill.intent?["billType"] == .string("electricity"))
        let transfer = try TextParser.parse("transfiere 100 dólares de ahorros a cheques", context: context)
        #expect(transfer.intentName == "transfer_money" && transfer.intent?["toAccount"]?["type"] == .string("checking"))
        #expect(try TextParser.parse("¿cuál es mi saldo?", context: context).intentName == "search_for_accounts")
        #expect(try TextParser.parse("¿qué tiempo hace en Madrid mañana?", context: context).isOutOfScope)
    }

    @Test func spanishDates() {
        func found(_ text: String) -> DateExtractor.Found? { DateExtractor.find(in: TextToken.tokenize(text), today: Fixtures.today).first }
        #expect(found("el viernes")?.day?.description == "2026-11-27")
        #expect(found("el viernes pasado")?.day?.description == "2026-11-20")
        #expect(found("pasado mañana")?.day?.description == "2026-11-24")
        #expect(found("la semana pasada")?.range.map { "\($0.start!)..\($0.end!)" } == "2026-11-09..2026-11-15")
        #expect(found("el mes que viene")?.range.map { "\($0.start!)..\($0.end!)" } == "2026-12-01..2026-12-31")
        #expect(found("la semana") == nil)
    }

    @Test func theBestHearingWinsAndKeepsTheOthers() throws {
        let result = try TextParser.parse(
            alternatives: [("what's the weather", nil), ("send $5 to Jon", nil), ("send $5 to John", nil)], context: context)
        #expect(result.intentName == "send_payment" && result.intent?["payee"]?["alternatives"] == .array([.string("john")]))
        #expect(throws: TenderError.self) { try TextParser.parse(alternatives: [], context: context) }
    }

    @Test func answersInWords() throws {
        #expect(try SpokenValue.value("twenty dollars", kind: .currencyAmount, today: Fixtures.today) == Money(decimal: "20", currency: .usDollar).json)
        #expect(try SpokenValue.value("the minimum", kind: .transactionAmount, today: Fixtures.today)["amountType"] == .string("minimumDue"))
        #expect(try SpokenValue.value("Tim", kind: .person, today: Fixtures.today) == .object([("name", .string("Tim"))]))
        #expect(try SpokenValue.value("tomorrow", kind: .date, today: Fixtures.today) == .string("2026-11-23"))
        #expect(throws: TenderError.self) { try SpokenValue.value("lots", kind: .currencyAmount, today: Fixtures.today) }
        // Answers go through the slot labeller: the value, not the words around it.
        #expect(try SpokenValue.value("make it 500", kind: .currencyAmount, today: Fixtures.today) == Money(decimal: "500", currency: .usDollar).json)
        #expect(try SpokenValue.value("to Philip please", kind: .person, today: Fixtures.today) == .object([("name", .string("Philip"))]))
        #expect(try SpokenValue.value("it's for my mom", kind: .person, today: Fixtures.today) == .object([("name", .string("mom"))]))
        #expect(try SpokenValue.value("from my savings", kind: .account, today: Fixtures.today) == .object([("nickname", .string("savings"))]))
    }

    @Test func tooLongTextIsRefused() {
        #expect(throws: TenderError.self) { try TextParser.parse(String(repeating: "a", count: 1001), context: context) }
        #expect(IntentModel.shared != nil)
    }

    @Test func theLabelledValuesBecomeParameters() throws {
        #expect(amount("150 cents") == "1.50 USD")
        for (text, intent) in [
            ("Tim said to pay the phone bill $45", "pay_bill"), ("transfer $400 from savings to checking", "transfer_money"),
            ("manda 3 mensajes a Juan", "out_of_scope"), ("pay the electric company the minimum on the 15th", "pay_bill"),
        ] {
            #expect(try TextParser.parse(text, context: context).intentName == intent, "\(text)")
        }
        #expect(try TextParser.parse("how much did I send Tim last month, was it $20", context: context).intentName != "send_payment")
        #expect(try TextParser.parse("send 20 dollars to my mom", context: context).intent?["payee"]?["name"] == .string("mom"))
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        let transfer = try TextParser.parse("transfer $400 from Safe-to-Spend to NestEgg", context: withDirectory)
        #expect(transfer.intent?["toAccount"]?["id"] == .string("nest") && transfer.intent?["fromAccount"]?["id"] == .string("safe"))
        // A payee that is one of the person's own accounts, and no contact: a transfer.
        let own = try TextParser.parse("send $200 to NestEgg", context: withDirectory)
        #expect(own.intentName == "transfer_money" && own.intent?["toAccount"]?["id"] == .string("nest"))
    }

    @Test func aShortcutSaidWithTheAppsName() throws {
        var withShortcut = context
        withShortcut.shortcuts = [try Shortcut(phrase: "coffee expense with Tender", intent: try JSONParser.parse(#"{"intent":"search_for_payments"}"#))]
        #expect(try TextParser.parse("Coffee expense", context: withShortcut).source == .shortcut)
        #expect(try TextParser.parse("coffee expense with tender", context: withShortcut).source == .shortcut)
    }

    @Test func reviewedMisreadingsOfAmounts() throws {
        for (text, expected) in [("manda 10,99 dólares a Tim", "10.99 USD"), ("€2,50", "2.50 EUR"), ("$12,5", "12.50 USD"), ("$1,250.50", "1250.50 USD"),
                                 ("5 and 50 cents", "5.50 USD"), ("$5 and 50 cents", "5.50 USD")] {
            #expect(amount(text) == expected, "\(text)")
        }
        for text in ["¥1.5", "$5 million", "a million million dollars", "zero hundred dollars", "one two three"] {
            #expect(AmountExtractor.find(in: TextToken.tokenize(text), defaultCurrency: .usDollar, bareNumbers: false).isEmpty, "\(text)")
        }
        // Amounts the normaliser refuses are never sent: the dialog asks instead.
        for text in ["send Tim 20 dollars and 150 cents", "send Tim -20 dollars", "send 20-30 dollars to tim"] {
            #expect(try TextParser.parse(text, context: context).intent?["currencyAmount"] == nil, "\(text)")
        }
        #expect(try TextParser.parse("send Tim 3 dollars 50", context: context).intent?["currencyAmount"]?["amount"] == .string("3.50"))
        #expect(throws: TenderError.self) {
            try Shortcut(phrase: "coffee", intent: try JSONParser.parse(#"{"intent":"send_payment","idempotencyKey":"k"}"#))
        }
        #expect(Shortcut.key(of: "Pay rent with Tender") == Shortcut.key(of: "pay rent"))
    }

    /// Sentences two reviews found misread by the old rules: look-alikes of payments. The model is measured on
    /// them as a whole (it is not tuned sentence by sentence): at most a third may be taken as a request that moves
    /// money (6 of 21 when last trained, and 2 more taken as searches, which only read).
    @Test func reviewedLookAlikesAreMostlyOutOfScope() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        let lookAlikes = [
            "send 3 messages to John Baily", "give John Baily 5 minutes", "pay John Baily a visit at 5", "I sent $50 to John yesterday",
            "my boss won't give $100 to charity", "go to walmart and pay $20 for gas", "remind me to pay John Baily 20 tomorrow",
            "Tim me manda 50 dólares", "pay attention to the balance sheet", "pay a visit to the phone store",
            "pay close attention to the electric company news", "I hate paying bills", "I forgot to pay my phone bill", "I can pay you $20",
            "you pay Tim $20", "I send Tim $20 every month", "pay $10 to enter the museum", "how do I transfer money abroad",
            "should I move money to savings", "what is a nest egg", "pay John Baily's electric bill 50 dollars",
        ]
        var accepted: [String] = []
        var movingMoney: [String] = []
        for text in lookAlikes {
            let result = try TextParser.parse(text, context: withDirectory)
            guard !result.isOutOfScope else { continue }
            accepted.append("\(text) → \(result.intentName)")
            if !result.intentName.hasPrefix("search_for_") { movingMoney.append(text) }
        }
        print("look-alikes accepted: \(accepted.count) of \(lookAlikes.count): \(accepted)")
        #expect(movingMoney.count * 3 <= lookAlikes.count, "\(accepted)")
    }

    /// Paying or asking before anyone is named: the dialog asks who, so these are payments and requests, not
    /// transfers between one's own accounts. Written for this test; measured as a whole, at most one may be missed
    /// (none when last trained; 2 with the model before SGD's unnamed transfers counted half for each label).
    @Test func payingWithNobodyNamedYet() throws {
        let said: [(String, String)] = [
            ("I have to make a payment today", "send_payment"), ("can you help me send money", "send_payment"),
            ("I'd like to send some cash to a friend", "send_payment"), ("I want to pay someone with my debit card", "send_payment"),
            ("please make a payment from my app balance", "send_payment"), ("I need to ask someone for money", "request_payment"),
            ("could you set up a money request", "request_payment"), ("I want to send money to my neighbor", "send_payment"),
            ("help me pay my friend back", "send_payment"), ("I'd like to transfer some money to somebody", "send_payment"),
        ]
        var missed: [String] = []
        for (text, intent) in said {
            let name = try TextParser.parse(text, context: context).intentName
            if name != intent { missed.append("\(text) → \(name)") }
        }
        print("paying with nobody named: \(said.count - missed.count) of \(said.count); missed: \(missed)")
        #expect(missed.count <= 1, "\(missed)")
    }

    @Test func requestsTheReviewsWantedUnderstood() throws {
        let polite = try TextParser.parse("so can you please send $20 to Tim", context: context)
        #expect(polite.intentName == "send_payment" && polite.intent?["payee"]?["name"] == .string("tim"))
        #expect(try TextParser.parse("send $20 to Tim Cook's account", context: context).intent?["payee"]?["name"] == .string("tim cook"))
        #expect(try TextParser.parse("pay $80 to the Electric Company", context: context).intentName == "pay_bill")
        #expect(try TextParser.parse("envía 20 dólares a mi mamá", context: context).intent?["payee"]?["name"] == .string("mamá"))
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        #expect(try TextParser.parse("pay John Baily 20 on friday", context: withDirectory).intentName == "send_payment")
        #expect(try TextParser.parse("please pay John Baily 20 for lunch", context: withDirectory).intentName == "send_payment")
    }

    /// People type names in lower case as often as not. Names and phrasings written for this test (not taken
    /// from any dev or test file); the test holds the measured share, not the sentences one by one.
    @Test func namesTypedInLowerCase() throws {
        let names = ["mike", "john", "sarah", "priya", "carlos", "emma", "ahmed", "lucy", "raj", "olga", "kevin", "fatima"]
        let phrasings: [((String) -> String, String, String)] = [
            ({ "send 20 dollars to \($0)" }, "send_payment", "payee"), ({ "pay \($0) 15 bucks" }, "send_payment", "payee"),
            ({ "ask \($0) for 30 dollars" }, "request_payment", "payer"), ({ "request $25 from \($0)" }, "request_payment", "payer"),
            ({ "give \($0) 10 dollars for lunch" }, "send_payment", "payee"), ({ "can you send \($0) $40" }, "send_payment", "payee"),
        ]
        var understood = 0
        var missed: [String] = []
        for name in names {
            for (phrase, intent, role) in phrasings {
                let text = phrase(name)
                let result = try TextParser.parse(text, context: context)
                if result.intentName == intent, result.intent?[role]?["name"] == .string(name) { understood += 1 } else { missed.append(text) }
            }
        }
        let total = names.count * phrasings.count
        print("names in lower case understood: \(understood) of \(total); missed: \(missed)")
        #expect(understood * 10 >= total * 8, "\(missed)")
    }

    /// Issue 31, section 4: faults a new user met.
    @Test func theCompanyPaidIsThePaymentSearchsParty() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        let result = try TextParser.parse("did I pay the electric company last month", context: withDirectory)
        #expect(result.intentName == "search_for_payments")
        #expect(result.intent?["party"]?["name"]?.stringValue?.lowercased() == "electric company")
        #expect(result.intent?["dateRange"] != nil)
    }

    @Test func spanishAccountWordsAreThePersonsAccounts() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        var withDirectory = context
        withDirectory.directory = engine.directory
        for (text, to) in [("transfiere 100 de ahorros a corriente", "checking"), ("transfiere 100 de ahorros a cheques", "checking"),
                           ("pasa 40 de corriente a ahorros", "savings")] {
            let result = try TextParser.parse(text, context: withDirectory)
            #expect(result.intentName == "transfer_money", "\(text)")
            #expect(result.intent?["toAccount"] == .object([("id", .string(to))]), "\(text): \(result.json)")
            #expect(result.intent?["fromAccount"] == .object([("id", .string(to == "checking" ? "savings" : "checking"))]), "\(text)")
        }
        // Without a directory the type is what was said.
        let bare = try TextParser.parse("transfiere 100 de ahorros a corriente", context: context)
        #expect(bare.intent?["fromAccount"] == .object([("type", .string("saving"))]))
        #expect(bare.intent?["toAccount"] == .object([("type", .string("checking"))]))
    }

    @Test func askingForMoneyInSpanishIsSpanish() throws {
        for text in ["pide 30 dólares a Craig", "cobra 12 a Lucía", "pídeme 5 dólares"] {
            #expect(try TextParser.parse(text, context: context).language == "es", "\(text)")
        }
    }

    /// Issue 31: the language is decided by the learnt lists of words leaning to each language, not by a few
    /// payment verbs: a Spanish request with no such verb is Spanish, and an English one naming Spanish names is English.
    @Test func languageIsDecidedByTheWordsThatLeanToIt() throws {
        for text in ["necesito hacer una transferencia", "quiero mandar dinero a mi hermana", "tengo que pagar la renta",
                     "me gustaría ver mis cuentas", "hazme el favor de pasarle cien a Jorge"] {
            #expect(try TextParser.parse(text, context: context).language == "es", "\(text)")
        }
        for text in ["I need to make a transfer", "send 20 to Maria", "pay Jose Luis 30 dollars", "request 15 from Lucía for tacos",
                     "what's the weather like"] {
            #expect(try TextParser.parse(text, context: context).language == "en", "\(text)")
        }
        #expect(Language.of(words: []) == "en")
        #expect(LanguageWords.spanish.isDisjoint(with: LanguageWords.english))
        #expect(LanguageWords.spanish.count > 1000 && LanguageWords.english.count > 1000)
    }
}
