import Testing
@testable import TenderCore

@Suite struct AuthenticationGateTests {
    private struct Setup {
        let engine: Engine
        let authenticator: FakeAuthenticator
        let records: FakeAuthenticationRecords
    }

    private func setup(_ configure: (inout AuthenticationPolicy) -> Void = { _ in }) throws -> Setup {
        let (plain, _, _) = try Fixtures.engine()
        var policy = AuthenticationPolicy()
        configure(&policy)
        let authenticator = FakeAuthenticator(password: "s3cret")
        let records = FakeAuthenticationRecords()
        let engine = Engine(
            directory: plain.directory, ledger: plain.ledger, limits: plain.limits,
            gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: records), dialog: Fixtures.personAgrees,
            today: { Fixtures.today })
        return Setup(engine: engine, authenticator: authenticator, records: records)
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
        newPayee.records.markPaid("tim-cook")
        #expect(try pay(newPayee, password: nil) == .success)

        let newDevice = try setup { $0.restrictedIntents = []; $0.newDevice = true }
        #expect(try pay(newDevice, device: "kitchen-speaker", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(newDevice, device: "kitchen-speaker") == .success)
        #expect(try pay(newDevice, device: "kitchen-speaker", password: nil) == .success)
        #expect(try pay(newDevice, device: nil, password: nil) == .failureCredentialsUnverified)
    }

    @Test func theReuseWindowIsBoundToPayeeAmountAndTime() async throws {
        let s = try setup { $0.reuseSeconds = 1 }
        #expect(try pay(s, amount: "10") == .success)
        #expect(try pay(s, amount: "10", password: nil) == .success)
        #expect(try pay(s, amount: "9.99", password: nil) == .success)
        #expect(try pay(s, amount: "10.01", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(s, payee: "john-baily", amount: "1", password: nil) == .failureCredentialsUnverified)
        #expect(s.authenticator.timesAsked == 3)  // once to pay, then asked (and cancelled) for the larger amount and the other payee
        try await Task.sleep(for: .milliseconds(1100))
        #expect(try pay(s, amount: "1", password: nil) == .failureCredentialsUnverified)
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

    @Test(arguments: [
        #"{"reuseSeconds":301}"#, #"{"reuseSeconds":-1}"#, #"{"restrictedIntents":["freeze_card"]}"#, #"{"service":"../etc"}"#,
        #"{"aboveAmount":{"USD":5}}"#, #"{"throttle":{"freeAttempts":-2}}"#, #"{"unknown":true}"#,
    ])
    func badPoliciesAreRefused(json: String) {
        #expect(throws: TenderError.self) { try AuthenticationPolicy(json: try JSONParser.parse(json)) }
    }
}
