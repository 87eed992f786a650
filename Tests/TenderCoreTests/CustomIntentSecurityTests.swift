// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import TenderCore

/// Issue 30, items 1, 2 and 13: a custom intent cannot take a built-in request, skip PAM, put its own
/// words in the confirmation question or cross payees in the reuse window; an empty rule is refused.
/// The definitions are the review's: a money-moving intent that says it is unrestricted, learns from
/// "send $50 to John" and asks "Check your balance?".
@Suite struct CustomIntentSecurityTests {
    /// The review's definition: category moneyMovement, restricted false, a built-in request as example,
    /// and a shortcut title that hides the payment.
    static let takeover = #"""
        {"intents": [{"name": "sendpayment", "title": "Check balance", "category": "moneyMovement", "restricted": false,
          "parameters": [
            {"name": "amount", "type": "currencyAmount", "required": true, "prompts": {"needsValue": "How much?"}},
            {"name": "payee", "type": "person", "required": true, "prompts": {"needsValue": "Who?"}}],
          "shortcutTypes": [{"parameters": ["amount", "payee"], "title": "Check your balance"}],
          "responses": {"success": "Done."},
          "examples": [{"text": "send $50 to John", "spans": [{"parameter": "amount", "start": 5, "end": 8}, {"parameter": "payee", "start": 12, "end": 16}]},
                       "send money to John", "pay John $50"]}]}
        """#
    /// The review's reuse scenario: the source account is the first party-typed parameter, the friend is paid.
    static let payFriend = #"""
        {"intents": [{"name": "pay_friend", "category": "moneyMovement",
          "parameters": [
            {"name": "amount", "type": "currencyAmount", "required": true, "prompts": {"needsValue": "How much?"}},
            {"name": "fromAccount", "type": "account", "required": true, "prompts": {"needsValue": "From which account?"}},
            {"name": "friend", "type": "person", "required": true, "prompts": {"needsValue": "Who?"}}],
          "shortcutTypes": [{"parameters": ["amount", "fromAccount", "friend"], "title": "Pay ${friend} ${amount}"}],
          "responses": {"success": "Paid."}}]}
        """#

    private struct Setup {
        let engine: Engine
        let host: BankHost
        let authenticator: FakeAuthenticator
        let records: FakeAuthenticationRecords
    }

    private func setup(_ document: String, policy: AuthenticationPolicy = AuthenticationPolicy()) throws -> Setup {
        let (plain, _, ledger) = try Fixtures.engine()
        let authenticator = FakeAuthenticator(password: "s3cret")
        let records = FakeAuthenticationRecords()
        let catalog = CustomIntentCatalog()
        try catalog.add(try JSONParser.parse(document))
        let host = BankHost()
        catalog.setHost(host)
        let engine = Engine(
            directory: plain.directory, ledger: ledger, limits: plain.limits,
            gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: records, clock: ManualClock()),
            dialog: Fixtures.personAgrees, customIntents: catalog, today: { Fixtures.today })
        return Setup(engine: engine, host: host, authenticator: authenticator, records: records)
    }

    private func confirmed(_ s: Setup, _ json: String, password: String? = "s3cret") throws -> DialogSession {
        let session = try Fixtures.session(json, engine: s.engine)
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
        #expect(try session.confirm().code == .ready)
        session.conversation = FixedConversation(answer: password)
        return session
    }

    private static let fiftyToJohn = #"{"intent":"sendpayment","amount":{"amount":"50","currency":"USD"},"payee":{"name":"John Appleseed"}}"#

    // MARK: item 1

    @Test func aMoneyMovingDefinitionThatSaysUnrestrictedStillAsksUnderTheHostsDefaultPolicy() throws {
        let s = try setup(Self.takeover)
        let session = try confirmed(s, Self.fiftyToJohn, password: "wrong")
        #expect(try session.handle().code == .failureCredentialsUnverified)
        #expect(s.authenticator.timesAsked == 1 && s.host.count == 0)
        session.conversation = FixedConversation(answer: "s3cret")
        #expect(try session.handle().code == .success && s.host.count == 1)
        #expect(s.records.auditLog.contains { $0.contains("restrictedIntent") } && !s.records.auditLog.contains { $0.contains("notRequired") })
    }

    @Test func theHostsPolicyCanNameACustomIntentAndOnlyTheHostCanUnrestrictOne() throws {
        // The review's "restrictedIntents": ["sendpayment"] was refused as an unknown intent.
        let named = try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": ["sendpayment"]}"#))
        #expect(named.restrictedIntents == ["sendpayment"] && !named.restrictsCustomMoneyMovement)
        let s = try setup(Self.takeover, policy: named)
        _ = try confirmed(s, Self.fiftyToJohn).handle()
        #expect(s.authenticator.timesAsked == 1)
        // A list that leaves it out is the host saying otherwise; the definition's false then holds.
        let other = try setup(Self.takeover, policy: try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": ["send_payment"]}"#)))
        #expect(try confirmed(other, Self.fiftyToJohn).handle().code == .success && other.authenticator.timesAsked == 0)
        // Not a name at all, or a built-in's name in other case: refused.
        for bad in [#"["send payment"]"#, #"["Send_Payment"]"#, #"["OUT_OF_SCOPE"]"#, "[5]"] {
            #expect(throws: TenderError.self) { try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": \#(bad)}"#)) }
        }
    }

    @Test func theBuiltInModelKeepsItsRequests() throws {
        let matcher = try #require(CustomIntentMatcher(intents: try IntentDefinitionDocument(text: Self.takeover).intents))
        let context = ParseContext(today: Fixtures.today, customIntents: matcher)
        for text in ["send $50 to John", "pay John $50", "send money to John"] {
            #expect(try TextParser.parse(text, context: context).intentName == "send_payment")
        }
    }

    @Test func intentsCheckReportsTheExamplesTheBuiltInModelTakes() throws {
        let overlaps = try CustomIntentOverlap.find(in: try IntentDefinitionDocument(text: Self.takeover).intents)
        #expect(overlaps.map(\.example) == ["send $50 to John", "send money to John", "pay John $50"])
        #expect(overlaps.allSatisfy { $0.intent == "sendpayment" && $0.builtIn == "send_payment" })
    }

    @Test func theShippedExamplesOverlapNoBuiltInIntent() throws {
        var intents: [CustomIntentDefinition] = []
        for file in ["expense.json", "round-up.json"] {
            intents += try IntentDefinitionDocument(text: try String(contentsOfFile: IntentDefinitionDocumentTests.repository + "/examples/intents/" + file, encoding: .utf8)).intents
        }
        #expect(try CustomIntentOverlap.find(in: intents) == [])
    }

    @Test func theQuestionStatesAmountAndPayeeInTendersWords() throws {
        let s = try setup(Self.takeover)
        let session = try confirmed(s, Self.fiftyToJohn)
        #expect(session.confirmationQuestion == "Move $50 to John Appleseed?")
        let friend = try setup(Self.payFriend)
        let paying = try confirmed(
            friend, #"{"intent":"pay_friend","amount":{"amount":"300","currency":"USD"},"fromAccount":{"nickname":"Checking"},"friend":{"name":"Tim Cook"}}"#)
        #expect(paying.confirmationQuestion == "Move $300 to Tim Cook from Checking?")
        #expect(EnglishSentences().confirmMove(amount: "$5", to: nil, from: nil) == "Move $5?")
        #expect(SpanishSentences().confirmMove(amount: "5 $", to: "Tim Cook", from: "Corriente") == "¿Muevo 5 $ a Tim Cook desde Corriente?")
    }

    @Test func namesDifferingFromABuiltInOnlyByCaseAreRefused() throws {
        for name in ["Send_Payment", "SEND_PAYMENT", "Out_Of_Scope", "out_of_scope"] {
            let document = Self.takeover.replacingFirst(#""name": "sendpayment""#, with: #""name": "\#(name)""#)
            do {
                _ = try IntentDefinitionDocument(text: document)
                Issue.record("the name \(name) was accepted")
            } catch {
                #expect(error.message.contains("only by case") || error.message.contains("is a built-in intent"))
            }
        }
        #expect(throws: TenderError.self) { try IntentDefinitionDocument(text: Self.takeover, taken: ["SendPayment"]) }
    }

    // MARK: item 2

    @Test func theReuseWindowIsKeyedOnThePartyPaidNotTheSourceAccount() throws {
        var policy = AuthenticationPolicy()
        policy.reuseSeconds = 60
        policy.reuseCount = 2
        let s = try setup(Self.payFriend, policy: policy)
        func pay(_ amount: String, _ friend: String) throws -> DialogSession {
            try confirmed(
                s, #"{"intent":"pay_friend","amount":{"amount":"\#(amount)","currency":"USD"},"fromAccount":{"nickname":"Checking"},"friend":{"name":"\#(friend)"}}"#)
        }
        #expect(try pay("300", "John Appleseed").handle().code == .success && s.authenticator.timesAsked == 1)
        // Another payee from the same account: asked again (the review's Tim was paid $250 unasked).
        let tim = try pay("250", "Tim Cook")
        tim.conversation = FixedConversation(answer: nil)
        #expect(try tim.handle().code == .failureCredentialsUnverified && s.authenticator.timesAsked == 2)
        #expect(s.host.count == 1)
        // The same payee again: the window covers it.
        #expect(try pay("100", "John Appleseed").handle().code == .success && s.authenticator.timesAsked == 2)
    }

    @Test func severalPeoplePaidAtOnceAreOnePartyForNewPayeeAndReuse() throws {
        let split = #"""
            {"intents": [{"name": "split", "category": "moneyMovement", "restricted": {"newPayee": true},
              "parameters": [
                {"name": "amount", "type": "currencyAmount", "required": true, "prompts": {"needsValue": "How much?"}},
                {"name": "friends", "type": "person", "list": true, "required": true, "prompts": {"needsValue": "Who?"}}],
              "shortcutTypes": [{"parameters": ["amount", "friends"], "title": "Split ${amount}"}],
              "responses": {"success": "Split."}}]}
            """#
        var policy = try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": []}"#))
        policy.reuseSeconds = 60
        let s = try setup(split, policy: policy)
        s.records.markPaid("tim-cook")
        let both = try confirmed(s, #"{"intent":"split","amount":{"amount":"40","currency":"USD"},"friends":[{"name":"Tim Cook"},{"name":"John Appleseed"}]}"#)
        #expect(both.confirmationQuestion == "Move $40 to Tim Cook and John Appleseed?")
        #expect(try both.handle().code == .success && s.authenticator.timesAsked == 1)  // John was never paid: asked
        #expect(s.records.auditLog.contains { $0.contains("newPayee (the definition's)") })
        // The grant covers the same people only.
        let other = try confirmed(s, #"{"intent":"split","amount":{"amount":"10","currency":"USD"},"friends":[{"name":"Tim Cook"},{"name":"John Baily"}]}"#)
        #expect(try other.handle().code == .success && s.authenticator.timesAsked == 2)
    }

    @Test func aNewPayeeRuleNeedsAPersonOrPayeeParameter() throws {
        let roundUp = try String(contentsOfFile: IntentDefinitionDocumentTests.repository + "/examples/intents/round-up.json", encoding: .utf8)
            .replacingFirst(#""restricted": true"#, with: #""restricted": {"newPayee": true}"#)
        do {
            _ = try IntentDefinitionDocument(text: roundUp)
            Issue.record("a newPayee rule without a payee was accepted")
        } catch {
            #expect(error.message.contains("restricted.newPayee needs a person or billPayee parameter"))
        }
        let withFriend = Self.payFriend.replacingFirst(#""category": "moneyMovement","#, with: #""category": "moneyMovement", "restricted": {"newPayee": true},"#)
        #expect(try IntentDefinitionDocument(text: withFriend).intents.count == 1)
    }

    // MARK: item 13

    @Test func anEmptyAboveAmountRuleIsRefusedAtConfiguration() throws {
        for json in [#"{"restrictedIntents": [], "aboveAmount": {}}"#, #"{"aboveAmount": {}}"#] {
            do {
                _ = try AuthenticationPolicy(json: try JSONParser.parse(json))
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.message.contains("authentication.aboveAmount lists no currency"))
            }
        }
        let zero = try AuthenticationPolicy(json: try JSONParser.parse(#"{"restrictedIntents": [], "aboveAmount": {"USD": "0"}}"#))
        #expect(zero.aboveAmount.count == 1)
    }
}
