// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct AuthenticationGateTests {
    private struct Setup {
        let engine: Engine
        let authenticator: FakeAuthenticator
        let records: FakeAuthenticationRecords
        let clock: ManualClock
    }

    private func setup(_ configure: (inout AuthenticationPolicy) -> Void = { _ in }) throws -> Setup {
        let (plain, _, _) = try Fixtures.engine()
        var policy = AuthenticationPolicy()
        configure(&policy)
        let authenticator = FakeAuthenticator(password: "s3cret")
        let records = FakeAuthenticationRecords()
        let clock = ManualClock()
        let engine = Engine(
            directory: plain.directory, ledger: plain.ledger, limits: plain.limits,
            gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: records, clock: clock), dialog: Fixtures.personAgrees,
            today: { Fixtures.today })
        return Setup(engine: engine, authenticator: authenticator, records: records, clock: clock)
    }

    private func pay(_ setup: Setup, payee: String = "tim-cook", amount: String = "10", device: String? = nil, password: String? = "s3cret")
        throws -> ResponseCode
    {
        let deviceMember = device.map { #","device":"\#($0)""# } ?? ""
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"\#(payee)","handle":"mobile"},"currencyAmount":{"amount":"\#(amount)","currency":"USD"}\#(deviceMember)}"#,
            engine: setup.engine)
        session.conversation = FixedConversation(answer: password)
        #expect(try session.confirm().code == .ready)
        return try session.handle().code
    }

    @Test func restrictedIntentsAskAndWrongPasswordsPayNothing() throws {
        let s = try setup()
        #expect(try pay(s, password: "nope") == .failureCredentialsUnverified)
        #expect(try s.engine.ledger.records().isEmpty)
        #expect(try pay(s) == .success)
        #expect(s.authenticator.timesAsked == 2)
        #expect(s.records.auditLog.contains { $0.hasPrefix("denied wrongCredentials") })
        #expect(!s.records.auditLog.contains { $0.contains("s3cret") || $0.contains("nope") })
    }

    @Test func unrestrictedIntentsDoNotAsk() throws {
        let s = try setup { $0.restrictedIntents = [] }
        #expect(try pay(s, password: nil) == .success)
        #expect(s.authenticator.timesAsked == 0)
    }

    @Test func cancellingOrNoConversationIsDenied() throws {
        let s = try setup()
        #expect(try pay(s, password: nil) == .failureCredentialsUnverified)
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"1","currency":"USD"}}"#, engine: s.engine)
        _ = try session.confirm()
        #expect(try session.handle().code == .failureCredentialsUnverified)
        #expect(session.lastDenial?.name == "cancelled")
        // The same session may retry once a conversation is set.
        session.conversation = FixedConversation(answer: "s3cret")
        #expect(try session.handle().code == .success)
    }

    @Test func rulesAskForLargeAmountsNewPayeesAndNewDevices() throws {
        let s = try setup { policy in
            policy.restrictedIntents = []
            policy.aboveAmount = ["USD": (try? Money(decimal: "100", currency: try Currency(code: "USD"))) ?? policy.aboveAmount["USD"]!]
        }
        #expect(try pay(s, amount: "100", password: nil) == .success)
        #expect(try pay(s, amount: "100.01", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(s, amount: "100.01") == .success)

        let newPayee = try setup { $0.restrictedIntents = []; $0.newPayee = true }
        #expect(try pay(newPayee, password: nil) == .failureCredentialsUnverified)
        #expect(try pay(newPayee) == .success)
        newPayee.records.markPaid("email:tim@example.com")
        #expect(try pay(newPayee, password: nil) == .success)

        let newDevice = try setup { $0.restrictedIntents = []; $0.newDevice = true }
        #expect(try pay(newDevice, device: "kitchen-speaker", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(newDevice, device: "kitchen-speaker") == .success)
        #expect(try pay(newDevice, device: "kitchen-speaker", password: nil) == .success)
        #expect(try pay(newDevice, device: nil, password: nil) == .failureCredentialsUnverified)
    }

    /// Issue 30.3: "paid before" is the handle paid (its kind and value), not the contact: a contact whose
    /// handle a directory edit points elsewhere is a new payee, and so is one paid on another of its handles.
    @Test func newPayeeKeysOnTheHandlePaidNotOnTheContact() throws {
        let s = try setup { $0.restrictedIntents = []; $0.newPayee = true }
        s.records.markPaid("tim-cook")
        s.records.markPaid("tc-work")
        #expect(try pay(s, password: nil) == .failureCredentialsUnverified)
        s.records.markPaid("email:tim@example.com")
        #expect(try pay(s, password: nil) == .success)
        s.records.markPaid("phone:1")  // John Baily's home handle, not the mobile paid below
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"john-baily","handle":"mobile"},"currencyAmount":{"amount":"5","currency":"USD"}}"#,
            engine: s.engine)
        session.conversation = FixedConversation(answer: nil)
        #expect(try session.confirm().code == .ready)
        #expect(try session.handle().code == .failureCredentialsUnverified)
    }

    @Test func theReuseWindowIsBoundToPayeeAmountAndTime() throws {
        let s = try setup { $0.reuseSeconds = 1 }
        #expect(try pay(s, amount: "10") == .success)
        #expect(try pay(s, amount: "9.99", password: nil) == .success)  // reused: 0.01 and no payment left
        #expect(try pay(s, amount: "10.01", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(s, payee: "john-baily", amount: "1", password: nil) == .failureCredentialsUnverified)
        #expect(s.authenticator.timesAsked == 3)  // once to pay, then asked (and cancelled) for the larger amount and the other payee
        s.clock.advance(seconds: 1)  // the window is over at exactly 1 s
        #expect(try pay(s, amount: "1", password: nil) == .failureCredentialsUnverified)
    }

    @Test func theReuseWindowEndsOnTheClock() throws {
        let s = try setup {
            $0.reuseSeconds = 60
            $0.reuseCount = 3
        }
        #expect(try pay(s, amount: "10") == .success)
        s.clock.advance(seconds: 59)
        #expect(try pay(s, amount: "5", password: nil) == .success)  // reused, still inside the window
        s.clock.advance(seconds: 1)
        #expect(try pay(s, amount: "1", password: nil) == .failureCredentialsUnverified)  // budget left, window over
        #expect(s.authenticator.timesAsked == 2)
    }

    @Test func noReuseByDefault() throws {
        let s = try setup()
        #expect(try pay(s) == .success)
        #expect(try pay(s, password: nil) == .failureCredentialsUnverified)
    }

    @Test func repeatedFailuresAreThrottledAndASuccessResets() throws {
        let s = try setup { $0.throttle = ThrottlePolicy(freeAttempts: 2, baseDelaySeconds: 30, maxDelaySeconds: 120) }
        #expect(try pay(s, password: "a") == .failureCredentialsUnverified)
        #expect(try pay(s, password: "b") == .failureCredentialsUnverified)
        let asked = s.authenticator.timesAsked
        #expect(try pay(s) == .failureCredentialsUnverified)
        #expect(s.authenticator.timesAsked == asked)
        s.records.advance(seconds: 31)
        #expect(try pay(s) == .success)
        #expect(try s.records.reserveAttempt(user: "ada", throttle: .standard) == 0)
    }

    @Test func cancellingDoesNotCountTowardTheThrottle() throws {
        let s = try setup { $0.throttle = ThrottlePolicy(freeAttempts: 1, baseDelaySeconds: 30, maxDelaySeconds: 120) }
        for _ in 0..<3 { #expect(try pay(s, password: nil) == .failureCredentialsUnverified) }
        #expect(try pay(s) == .success)
    }

    @Test func aRetryOfAPaidKeyNeitherAsksNorFailsOnFunds() throws {
        let s = try setup()
        let intent = #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"600","currency":"USD"},"idempotencyKey":"order-7"}"#
        let first = try Fixtures.session(intent, engine: s.engine)
        first.conversation = FixedConversation(answer: "s3cret")
        _ = try first.confirm()
        let paid = try first.handle()
        #expect(paid.code == .success)
        // The host crashed before keeping the record; 400.00 is left, less than 600.00.
        let retry = try Fixtures.session(intent, engine: s.engine)
        #expect(try retry.confirm().code == .ready)
        let again = try retry.handle()
        #expect(again.code == .success && again.record == paid.record)
        #expect(s.authenticator.timesAsked == 1)
        #expect(try s.engine.ledger.records().count == 1)
    }

    @Test func throttleDelaysGrowAndCap() {
        let policy = ThrottlePolicy(freeAttempts: 3, baseDelaySeconds: 30, maxDelaySeconds: 900)
        #expect((0...8).map { policy.delay(afterFailures: $0) } == [0, 0, 0, 30, 60, 120, 240, 480, 900])
        #expect(policy.delay(afterFailures: 10_000) == 900)
    }

    @Test func aboveAmountFailsClosedForCurrenciesItDoesNotList() throws {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        policy.aboveAmount = ["USD": try Money(decimal: "100.00", currency: try Currency(code: "USD"))]
        let records = FakeAuthenticationRecords()
        func requirement(_ amount: String, _ code: String) throws -> String? {
            try policy.requirement(
                intent: "send_payment", amount: try Money(decimal: amount, currency: try Currency(code: code)), payeeID: "tim-cook",
                device: nil, records: records)
        }
        #expect(try requirement("50", "USD") == nil)
        #expect(try requirement("500", "USD") == "aboveAmount")
        #expect(try requirement("5000", "EUR") == "aboveAmount (EUR is not listed)")
        #expect(try requirement("1", "JPY") != nil)
    }

    @Test func everyPaymentIsAuditedAndTestingModeSaysSo() throws {
        let s = try setup {
            $0.restrictedIntents = []
            $0.newPayee = true
            $0.testing = true
            $0.service = "tender-test"
        }
        s.records.markPaid("email:tim@example.com")
        #expect(try pay(s, password: nil) == .success)  // an old payee: not asked, but audited
        #expect(s.records.auditLog.last?.contains("notRequired testing mode (PAM service tender-test): policy unrestricted") == true)
        #expect(try pay(s, payee: "john-appleseed") == .success)
        #expect(s.records.auditLog.last?.contains("authenticated testing mode (PAM service tender-test): newPayee") == true)
    }

    @Test func theReuseWindowIsABudget() throws {
        let s = try setup {
            $0.reuseSeconds = 60
            $0.reuseCount = 2
        }
        #expect(try pay(s, amount: "300") == .success)
        #expect(try pay(s, amount: "200", password: nil) == .success)  // reused: 100.00 and 1 payment left
        #expect(try pay(s, amount: "150", password: nil) == .failureCredentialsUnverified)  // more than is left
        #expect(try pay(s, amount: "100", password: nil) == .success)  // the rest
        #expect(try pay(s, amount: "1", password: nil) == .failureCredentialsUnverified)  // spent
        #expect(s.authenticator.timesAsked == 3)  // to pay 300, then asked (and cancelled) for 150 and for 1
        #expect(s.records.auditLog.contains { $0.contains("reuse window budget left USD 100.00 and 1 payment(s)") })
        #expect(s.records.auditLog.contains { $0.contains("reuse budget USD 300.00 over at most 2 more payment(s)") })
    }

    @Test func throttleFloorsCanOnlyBeTightened() throws {
        for loose in [
            #"{"freeAttempts":6}"#, #"{"freeAttempts":86400}"#, #"{"baseDelaySeconds":0}"#, #"{"maxDelaySeconds":59}"#,
            #"{"baseDelaySeconds":120,"maxDelaySeconds":60}"#,
        ] {
            #expect(throws: TenderError.self) { try ThrottlePolicy(json: try JSONParser.parse(loose)) }
        }
        let tight = try ThrottlePolicy(json: try JSONParser.parse(#"{"freeAttempts":0,"baseDelaySeconds":1,"maxDelaySeconds":60}"#))
        #expect(tight == ThrottlePolicy(freeAttempts: 0, baseDelaySeconds: 1, maxDelaySeconds: 60))
        #expect(try ThrottlePolicy(json: try JSONParser.parse("{}")) == .standard)
    }

    @Test func aTestStackNeedsTestingMode() throws {
        for json in [#"{"service":"su"}"#, #"{"pamConfigDirectory":"/tmp/permit"}"#] {
            #expect(throws: TenderError.self) { try AuthenticationPolicy(json: try JSONParser.parse(json)) }
            let policy = try AuthenticationPolicy(json: try JSONParser.parse(json), testing: true)
            #expect(policy.testing && policy.usesTestStack)
        }
        let configuration = try EngineConfiguration(json: try JSONParser.parse(#"{"home":"/h","testing":true,"authentication":{"service":"su"}}"#))
        #expect(configuration.authentication.service == "su" && configuration.authentication.testing)
        #expect(throws: TenderError.self) {
            try EngineConfiguration(json: try JSONParser.parse(#"{"home":"/h","authentication":{"service":"su"}}"#))
        }
    }

    @Test(arguments: [
        #"{"reuseSeconds":301}"#, #"{"reuseSeconds":-1}"#, #"{"restrictedIntents":["freeze card"]}"#, #"{"restrictedIntents":["Send_Payment"]}"#, #"{"service":"../etc"}"#,
        #"{"aboveAmount":{"USD":5}}"#, #"{"aboveAmount":{}}"#, #"{"throttle":{"freeAttempts":-2}}"#, #"{"unknown":true}"#,
    ])
    func badPoliciesAreRefused(json: String) {
        #expect(throws: TenderError.self) { try AuthenticationPolicy(json: try JSONParser.parse(json)) }
    }
}
