// SPDX-License-Identifier: Apache-2.0
import Synchronization
import Testing
@testable import TenderCore

/// The host of the custom intents under test: the person's expenses, a savings pot, every request kept.
final class BankHost: CustomIntentHost {
    let requests = Mutex<[JSONValue]>([])
    let reply: @Sendable (JSONValue) -> JSONValue

    init(reply: @escaping @Sendable (JSONValue) -> JSONValue = { request in
        guard request["intent"]?.stringValue == "expense" else { return .object([("code", .string("success"))]) }
        return .object([("code", .string("success")), ("values", .object([("amountLeft", .object([("amount", .string("20.00")), ("currency", .string("USD"))]))]))])
    }) { self.reply = reply }

    var count: Int { requests.withLock { $0.count } }

    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
        requests.withLock { $0.append(request) }
        return reply(request)
    }

    func values(intent: String, parameter: String) throws(TenderError) -> [String] { ["vacation", "coffee shop", "coffee beans"] }
}

/// Custom intents through the shared lifecycle: every resolution result in the definition's words, the
/// prompt limit, confirmation, agreement, the gate with the definition's restriction, idempotency and the recording rule.
@Suite struct CustomIntentSessionTests {
    static let expense = #"""
        {"intents": [{"name": "expense", "category": "information",
          "parameters": [{"name": "expense", "type": "string", "required": true, "values": "host",
            "prompts": {"needsValue": "Which expense?", "disambiguation": "Which expense: ${options}?"},
            "unsupportedReasons": {"unknownExpense": "You have no expense called ${expense}."}}],
          "outputs": {"amountLeft": "currencyAmount"},
          "shortcutTypes": [{"parameters": ["expense"], "title": "Money left in ${expense}"}],
          "responses": {"success": "You have ${amountLeft} left in ${expense}."}}]}
        """#
    static let roundUp = #"""
        {"intents": [{"name": "round_up", "title": "Round up", "category": "moneyMovement",
          "parameters": [
            {"name": "amount", "type": "currencyAmount", "required": true, "confirm": true,
             "prompts": {"needsValue": "How much?", "confirmation": "Round up by ${amount}?"}},
            {"name": "fromAccount", "type": "account"},
            {"name": "speed", "type": "enum", "cases": ["slow", {"name": "fast", "synonyms": ["right away"]}]}],
          "shortcutTypes": [{"parameters": ["amount"], "title": "Round up by ${amount}"},
                            {"parameters": ["amount", "fromAccount", "speed"], "title": "Round up by ${amount} from ${fromAccount}"}],
          "responses": {"success": "Done: ${amount}."},
          "restricted": {"aboveAmount": {"USD": "10.00"}}}]}
        """#

    private struct Setup {
        let engine: Engine
        let ledger: FakeLedger
        let host: BankHost
        let authenticator: FakeAuthenticator
    }

    private func setup(_ documents: String..., host: BankHost = BankHost(), agreement: Bool = false, maxPrompts: Int = 5) throws -> Setup {
        let (plain, _, ledger) = try Fixtures.engine()
        let authenticator = FakeAuthenticator(password: "s3cret")
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        policy.restrictsCustomMoneyMovement = false  // the host lets the definitions' rules decide
        var dialog = DialogOptions()
        dialog.requireAgreement = agreement
        dialog.maxPrompts = maxPrompts
        let catalog = CustomIntentCatalog()
        for document in documents { try catalog.add(try JSONParser.parse(document)) }
        catalog.setHost(host)
        let engine = Engine(
            directory: plain.directory, ledger: ledger, limits: plain.limits,
            gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: FakeAuthenticationRecords(), clock: ManualClock()),
            dialog: dialog, customIntents: catalog, today: { Fixtures.today })
        return Setup(engine: engine, ledger: ledger, host: host, authenticator: authenticator)
    }

    private func only(_ session: DialogSession) throws -> ParameterResolution { try #require(session.resolve().first) }

    @Test func successAnswersTheResponseInThePersonsWords() throws {
        let s = try setup(Self.expense)
        let session = try Fixtures.session(#"{"intent":"expense","expense":"Vacation"}"#, engine: s.engine)
        #expect(try only(session).result == .success(.string("vacation")))
        #expect(try session.confirm().code == .ready)
        #expect(session.confirmationQuestion == nil)  // information: no agreement needed
        let outcome = try session.handle()
        #expect(outcome.code == .success && outcome.record == nil)
        #expect(outcome.response?.text == "You have $20 left in vacation.")
        #expect(s.host.requests.withLock { $0.first?["parameters"] } == .object([("expense", .string("vacation"))]))
        #expect(s.ledger.intentRecords.withLock { $0.isEmpty })  // not recorded unless the definition asks
    }

    @Test func needsValueDisambiguationAndUnsupportedCarryTheDefinitionsWords() throws {
        let s = try setup(Self.expense)
        let session = try Fixtures.session(#"{"intent":"expense"}"#, engine: s.engine)
        let missing = try only(session)
        #expect(missing.result == .needsValue && missing.message == "Which expense?")
        try session.answer(Answer(parameter: "expense", kind: .value(.string("coffee"))))
        let several = try only(session)
        guard case let .disambiguation(_, options) = several.result else { Issue.record("expected disambiguation, got \(several.result)"); return }
        #expect(options.map(\.id) == ["coffee shop", "coffee beans"] && several.message == "Which expense: coffee shop or coffee beans?")
        try session.answer(Answer(parameter: "expense", kind: .choose("coffee beans")))
        #expect(try only(session).result == .success(.string("coffee beans")))
        let unknown = try Fixtures.session(#"{"intent":"expense","expense":"yacht"}"#, engine: s.engine)
        let refused = try only(unknown)
        #expect(refused.result == .unsupported(reason: "unknownExpense") && refused.message == "You have no expense called yacht.")
    }

    @Test func confirmationRequiredNotRequiredAndEnumCases() throws {
        let s = try setup(Self.roundUp)
        let session = try Fixtures.session(#"{"intent":"round_up","amount":{"amount":"5","currency":"USD"},"speed":"right away"}"#, engine: s.engine)
        let results = try session.resolve()
        #expect(results[0].result == .confirmationRequired(try Money(decimal: "5", currency: .usDollar).json) && results[0].message == "Round up by $5?")
        #expect(results[1].result == .notRequired && results[2].result == .success(.string("fast")))
        try session.answer(Answer(parameter: "amount", kind: .confirm(false)))
        #expect(try session.resolve()[0].result == .needsValue)  // a no asks for another amount
        try session.answer(Answer(parameter: "amount", kind: .value(try Money(decimal: "3", currency: .usDollar).json)))
        #expect(try session.resolve()[0].message == "Round up by $3?")
        try session.answer(Answer(parameter: "amount", kind: .confirm(true)))
        #expect(try session.resolve().allSatisfy(\.result.isResolved))
        let ready = try session.confirm()
        #expect(ready.code == .ready && session.confirmationQuestion == "Move $3?")
        let speedy = try Fixtures.session(#"{"intent":"round_up","speed":"sloow"}"#, engine: s.engine)
        #expect(try speedy.resolve()[2].result == .confirmationRequired(.string("slow")))
    }

    @Test func anAmountOutsideTheLimitsIsUnsupportedAndAConfirmFailure() throws {
        let s = try setup(Self.roundUp)
        let session = try Fixtures.session(#"{"intent":"round_up","amount":{"amount":"999999","currency":"USD"}}"#, engine: s.engine)
        #expect(try session.resolve()[0].result == .unsupported(reason: UnsupportedReason.paymentsAmountAboveMaximum.rawValue))
        #expect(try session.confirm().code == .failurePaymentsAmountAboveMaximum)
    }

    @Test func thePromptLimitEndsTheDialog() throws {
        let s = try setup(Self.expense, maxPrompts: 2)
        let session = try Fixtures.session(#"{"intent":"expense"}"#, engine: s.engine)
        _ = try session.resolve()
        _ = try session.resolve()
        do {
            _ = try session.resolve()
            Issue.record("a third unanswered prompt did not end the dialog")
        } catch {
            guard case .dialogEnded = error else { Issue.record("expected dialogEnded, got \(error)"); return }
        }
    }

    private func confirmedRoundUp(_ s: Setup, amount: String = "5", key: String? = nil) throws -> DialogSession {
        let keyMember = key.map { #","idempotencyKey":"\#($0)""# } ?? ""
        let session = try Fixtures.session(#"{"intent":"round_up","amount":{"amount":"\#(amount)","currency":"USD"}\#(keyMember)}"#, engine: s.engine)
        _ = try session.resolve()
        try session.answer(Answer(parameter: "amount", kind: .confirm(true)))
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        session.conversation = FixedConversation(answer: "s3cret")
        return session
    }

    @Test func moneyMovementNeedsAYesAndIsRecordedExactlyOncePerKey() throws {
        let s = try setup(Self.roundUp, agreement: true)
        let session = try confirmedRoundUp(s, key: "round-up-1")
        do {
            _ = try session.handle()
            Issue.record("handle moved money without the person's yes")
        } catch {
            guard case .notAgreed = error else { Issue.record("expected notAgreed, got \(error)"); return }
        }
        #expect(s.host.count == 0)
        try session.agree(true)
        let first = try session.handle()
        #expect(first.code == .success && first.response?.text == "Done: $5.")
        let record = try #require(first.record)
        #expect(record.json.contains(#""intent":"round_up""#) && record.json.contains(#""response":{"code":"success""#))
        #expect(try session.handle() == first && s.host.count == 1)
        // Another session with the same key and parameters: the record again, the host not asked.
        let retry = try confirmedRoundUp(s, key: "round-up-1")
        try retry.agree(true)
        let again = try retry.handle()
        #expect(again.record == record && again.response?.text == "Done: $5." && s.host.count == 1)
        // The same key with another amount: a conflict, before the host is asked.
        let other = try confirmedRoundUp(s, amount: "6", key: "round-up-1")
        try other.agree(true)
        do {
            _ = try other.handle()
            Issue.record("the key was reused with other parameters")
        } catch {
            guard case .idempotencyConflict = error else { Issue.record("expected idempotencyConflict, got \(error)"); return }
        }
        #expect(try s.host.count == 1 && s.ledger.records().count == 1)
    }

    @Test func theDefinitionsRestrictionDecidesWhetherPAMAsks() throws {
        let s = try setup(Self.roundUp)
        #expect(try confirmedRoundUp(s, amount: "5").handle().code == .success)
        #expect(s.authenticator.timesAsked == 0)  // at most USD 10.00: not restricted
        let large = try confirmedRoundUp(s, amount: "11")
        large.conversation = FixedConversation(answer: "wrong")
        let denied = try large.handle()
        #expect(denied.code == .failureCredentialsUnverified && s.authenticator.timesAsked == 1 && s.host.count == 1)
        large.conversation = FixedConversation(answer: "s3cret")
        #expect(try large.handle().code == .success && s.host.count == 2)
    }

    @Test func informationIsRecordedOnlyWhenTheDefinitionAsks() throws {
        let recorded = Self.expense.replacingFirst(#""category": "information","#, with: #""category": "information", "recorded": true,"#)
        let s = try setup(recorded)
        let session = try Fixtures.session(#"{"intent":"expense","expense":"coffee beans"}"#, engine: s.engine)
        _ = try session.resolve()
        _ = try session.confirm()
        let outcome = try session.handle()
        let record = try #require(outcome.record)
        #expect(record.json.contains(#""type":"intent""#) && record.json.contains(#""expense":"coffee beans""#))
        #expect(try s.ledger.intentRecords.withLock { $0 } == [record] && s.ledger.records().isEmpty)
    }

    @Test func aReplyTheDefinitionDoesNotAllowIsACallbackErrorAndRecordsNothing() throws {
        for reply: JSONValue in [
            .object([("code", .string("splendid"))]),
            .object([("code", .string("success")), ("values", .object([("pot", .string("x"))]))]),
            .object([("code", .string("success")), ("values", .object([("amountLeft", .string("lots"))]))]),
        ] {
            let s = try setup(Self.expense, host: BankHost { _ in reply })
            let session = try Fixtures.session(#"{"intent":"expense","expense":"coffee beans"}"#, engine: s.engine)
            _ = try session.resolve()
            _ = try session.confirm()
            do {
                _ = try session.handle()
                Issue.record("the reply \(JSONWriter.string(reply)) was accepted")
            } catch {
                guard case .callback = error else { Issue.record("expected callback, got \(error)"); return }
            }
        }
    }

    @Test func aFailureCodeKeepsTheSessionConfirmed() throws {
        let s = try setup(Self.expense, host: BankHost { _ in .object([("code", .string("failure"))]) })
        let session = try Fixtures.session(#"{"intent":"expense","expense":"coffee beans"}"#, engine: s.engine)
        _ = try session.resolve()
        _ = try session.confirm()
        #expect(try session.handle().code == .failure)
        #expect(throws: TenderError.self) { try session.handle() }  // back to resolving: confirm again first
        #expect(try session.confirm().code == .ready)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
