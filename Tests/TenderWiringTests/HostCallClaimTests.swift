// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderStore
import TenderTestSupport
import TenderWiring

/// Exactly once beyond Tender's own store (issue 30, item 5): sessions of one engine sharing an
/// idempotency key ask the host's `send`, or a money-moving custom intent's `handle`, once; a claim
/// whose holder ended before recording the host's answer is reported, never paid again, and settled
/// by a status change.
@Suite struct HostCallClaimTests {
    private static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                       "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true}]}
        """
    private static let roundUp = #"""
        {"intents": [{"name": "round_up", "title": "Round up", "category": "moneyMovement",
          "parameters": [{"name": "amount", "type": "currencyAmount", "required": true, "prompts": {"needsValue": "How much?"}}],
          "shortcutTypes": [{"parameters": ["amount"], "title": "Round up by ${amount}"}],
          "responses": {"success": "Done: ${amount}."},
          "restricted": true}]}
        """#

    /// A host's payment system that counts the calls and takes its time, so the other sessions arrive meanwhile.
    private final class CountingHost: PaymentBackend, CustomIntentHost {
        let calls = Atomic<Int>(0)
        let answer: ResponseCode

        init(answer: ResponseCode = .success) { self.answer = answer }

        func canSend(_ payment: JSONValue) throws(TenderError) -> ResponseCode { .ready }

        func send(_ payment: JSONValue) throws(TenderError) -> ResponseCode {
            calls.add(1, ordering: .relaxed)
            usleep(100_000)
            return answer
        }

        func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
            calls.add(1, ordering: .relaxed)
            usleep(100_000)
            return .object([("code", .string("success")), ("values", .object([]))])
        }

        func values(intent: String, parameter: String) throws(TenderError) -> [String] { [] }
    }

    /// PAM stand-in: every person authenticates (the gate still runs and audits).
    private struct Yes: Authenticator {
        var user: String { "tester" }
        func authenticate(through conversation: any Conversation) -> AuthenticationDenial? { nil }
    }

    private struct Silent: Conversation {
        func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? { 0 }
    }

    private struct Setup {
        let home: TemporaryHome
        let store: SQLiteStore
        let engine: Engine
        let host: CountingHost
    }

    private func setup(answer: ResponseCode = .success) throws -> Setup {
        let home = TemporaryHome()
        let store = try EngineFactory.openStore(home: home.path + "/home", access: .readWrite(newLedger: false))
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory)))
        let host = CountingHost(answer: answer)
        let catalog = CustomIntentCatalog()
        try catalog.add(try JSONParser.parse(Self.roundUp))
        catalog.setHost(host)
        var dialog = DialogOptions()
        dialog.requireAgreement = false
        var policy = AuthenticationPolicy()
        // Eight authentications at once are eight attempts in flight: let them all through.
        policy.throttle = ThrottlePolicy(freeAttempts: 100, baseDelaySeconds: 1, maxDelaySeconds: 60)
        let engine = Engine(
            directory: store, ledger: store,
            gate: AuthenticationGate(policy: policy, authenticator: Yes(), records: store, clock: SystemClock()),
            dialog: dialog, backend: host, customIntents: catalog, today: { SystemClock().today() })
        return Setup(home: home, store: store, engine: engine, host: host)
    }

    private static func payment(_ key: String) -> String {
        #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"5","currency":"USD"},"idempotencyKey":"\#(key)"}"#
    }

    private static func roundUp(_ key: String) -> String {
        #"{"intent":"round_up","amount":{"amount":"5","currency":"USD"},"idempotencyKey":"\#(key)"}"#
    }

    /// A confirmed session about `json`, ready to handle.
    private func confirmed(_ json: String, _ engine: Engine) throws -> DialogSession {
        let session = try DialogSession(engine: engine, json: try JSONParser.parse(json))
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        session.conversation = Silent()
        return session
    }

    /// Handles `json` in eight threads at once; answers each thread's outcome document, or its error.
    private func eightAtOnce(_ json: String, _ engine: Engine) -> [String] {
        let outcomes = Mutex<[String]>([])
        let ready = Atomic<Int>(0)
        let threads = (0..<8).map { _ in
            TestThread {
                let text: String
                do {
                    let session = try confirmed(json, engine)
                    // Every session confirmed before any handles: they all race for the key.
                    ready.add(1, ordering: .sequentiallyConsistent)
                    while ready.load(ordering: .sequentiallyConsistent) < 8 { usleep(1000) }
                    text = JSONWriter.string(try session.handle().document())
                } catch {
                    ready.add(1, ordering: .sequentiallyConsistent)
                    text = "error: \(error)"
                }
                outcomes.withLock { $0.append(text) }
            }
        }
        for thread in threads { thread.join() }
        return outcomes.withLock { $0 }
    }

    @Test func eightSessionsWithOneKeyAskTheHostsSendOnceAndAnswerOneRecord() throws {
        let s = try setup()
        let outcomes = eightAtOnce(Self.payment("eight-threads"), s.engine)
        #expect(s.host.calls.load(ordering: .relaxed) == 1)
        #expect(outcomes.count == 8 && Set(outcomes).count == 1)
        #expect(outcomes.first?.contains(#""code":"success""#) == true && outcomes.first?.contains(#""jws":"#) == true)
        #expect(try s.store.records().count == 1)
        #expect(try s.store.verify().count == 2)  // the directory's signed balances, then the payment
    }

    @Test func eightSessionsWithOneKeyAskACustomIntentsHandleOnce() throws {
        let s = try setup()
        let outcomes = eightAtOnce(Self.roundUp("eight-custom"), s.engine)
        #expect(s.host.calls.load(ordering: .relaxed) == 1)
        #expect(outcomes.count == 8 && Set(outcomes).count == 1, "\(Set(outcomes))")
        #expect(outcomes.first?.contains(#""code":"success""#) == true && outcomes.first?.contains(#""response":"#) == true)
        #expect(try s.store.records().count == 1)
    }

    @Test func sessionsWaitingForAFailureAnswerItAndALaterRetryAsksAgain() throws {
        let s = try setup(answer: .failureNotEligible)
        let outcomes = eightAtOnce(Self.payment("eight-failures"), s.engine)
        // Nothing moved, so a session arriving after the failure may ask again; those that waited answer the failure.
        #expect(outcomes.count == 8 && Set(outcomes).count == 1 && outcomes.allSatisfy { $0.hasPrefix(#"{"code":"failureNotEligible""#) })
        let asked = s.host.calls.load(ordering: .relaxed)
        #expect(asked >= 1 && asked < 8)
        _ = try confirmed(Self.payment("eight-failures"), s.engine).handle()
        #expect(s.host.calls.load(ordering: .relaxed) == asked + 1)
        #expect(try s.store.records().isEmpty)
    }

    /// A backend whose call ends as in a process killed inside it: the money moved (counted), no answer.
    private final class KilledInSend: PaymentBackend {
        let calls = Atomic<Int>(0)
        func canSend(_ payment: JSONValue) throws(TenderError) -> ResponseCode { .ready }
        func send(_ payment: JSONValue) throws(TenderError) -> ResponseCode {
            calls.add(1, ordering: .relaxed)
            throw .internal("killed")
        }
    }

    /// The store's claims as a killed process uses them: it claims, then releases nothing (it is gone);
    /// its hold ends as the process's memory does.
    private final class DeadProcessClaims: HostCallClaims {
        let store: SQLiteStore
        let tokens = Mutex<[String]>([])
        init(store: SQLiteStore) { self.store = store }
        func claim(_ call: HostCall) throws(TenderError) -> ClaimOutcome {
            let outcome = try store.claim(call)
            if case let .claimed(token) = outcome { tokens.withLock { $0.append(token) } }
            return outcome
        }
        func release(_ token: String, failure: ResponseCode) throws(TenderError) {}
        func finish(_ token: String) { store.finish(token) }
    }

    /// Leaves what a session killed inside the host's send leaves for `json`'s key: the claim, committed, and no record.
    private func killInsideSend(_ json: String, _ s: Setup) throws {
        let killed = KilledInSend()
        var dialog = DialogOptions()
        dialog.requireAgreement = false
        let claims = DeadProcessClaims(store: s.store)
        let engine = Engine(
            directory: s.store, ledger: s.store, gate: .open, dialog: dialog, backend: killed, claims: claims, today: { SystemClock().today() })
        #expect(throws: TenderError.self) { _ = try confirmed(json, engine).handle() }
        #expect(killed.calls.load(ordering: .relaxed) == 1 && claims.tokens.withLock { $0.count } == 1)
    }

    @Test func aClaimWhoseHolderEndedIsReportedNeverPaidAgainAndStatusSettlesIt() throws {
        let s = try setup()
        let key = "crashed-claim"
        try killInsideSend(Self.payment(key), s)
        let retry = try confirmed(Self.payment(key), s.engine)
        do {
            _ = try retry.handle()
            Issue.record("a retry after an unknown outcome went ahead")
        } catch {
            guard case .outcomeUnknown = error else { Issue.record("expected outcomeUnknown, got \(error)"); return }
            #expect(error.message.contains("tender status \(key) completed"))
        }
        #expect(s.host.calls.load(ordering: .relaxed) == 0)
        #expect(try s.store.verify().count == 1)  // the directory's balances; a claim is not a ledger entry: verify does not flag it

        // The host's system says it paid: completed records the payment the session would have recorded.
        let settled = try s.store.changeStatus(idempotencyKey: key, to: .completed)
        #expect(settled.json.contains(#""type":"payment""#) && settled.json.contains(#""settled":"status""#) && !settled.jws.isEmpty)
        let after = try confirmed(Self.payment(key), s.engine).handle()
        #expect(after.code == .success && after.record?.jws == settled.jws)
        #expect(s.host.calls.load(ordering: .relaxed) == 0)
        #expect(try s.store.verify().count == 2)

        // The host's system says it did not pay: failed records nothing, and the key may be handled again, once.
        let other = "crashed-unpaid"
        try killInsideSend(Self.payment(other), s)
        #expect(throws: TenderError.self) { _ = try confirmed(Self.payment(other), s.engine).handle() }
        let released = try s.store.changeStatus(idempotencyKey: other, to: .failed)
        #expect(released.jws.isEmpty && released.json.contains(#""status":"failed""#))
        #expect(try confirmed(Self.payment(other), s.engine).handle().code == .success)
        #expect(try confirmed(Self.payment(other), s.engine).handle().code == .success)
        #expect(s.host.calls.load(ordering: .relaxed) == 1)
        #expect(try s.store.verify().count == 3)
    }

    /// A claim a Tender before record format 2 left unsettled keeps a format-1 record; settled now, it is written in
    /// format 2 (docs/records.md), so the ledger does not go back to format 1, and a retry answers it.
    @Test func aClaimAnEarlierVersionLeftIsSettledInFormatTwo() throws {
        let s = try setup()
        #expect(try confirmed(Self.payment("before"), s.engine).handle().code == .success)
        let key = "claimed-before-format-2"
        try killInsideSend(Self.payment(key), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let row = try db.statement("SELECT fingerprint, body FROM claims WHERE idempotency_key = ?", [key])
        #expect(try row.step())
        let fingerprint = try #require(row.text(0))
        let parsed = try JSONParser.parse("{" + (try #require(row.text(1))) + "}")
        _ = try row.step()
        let columns = try #require(parsed["ledger"])
        let formatOne = JSONValue.object([
            ("idempotencyKey", .string(key)), ("fingerprint", .string(fingerprint)), ("account", .null),
            ("payeeContact", .string("tim-cook")), ("payeeHandle", .string("tc-work")), ("currency", try #require(columns["currency"])),
            ("amountMinor", try #require(columns["amountMinor"])), ("effects", try #require(columns["effects"])),
        ])
        let members = try #require(parsed.objectMembers).filter { $0.key != "v" }.map { $0.key == "ledger" ? ("ledger", formatOne) : $0 }
        try db.statement("UPDATE claims SET body = ? WHERE idempotency_key = ?", [String(decoding: JSONWriter.members(members), as: UTF8.self), key]).run()

        let settled = try s.store.changeStatus(idempotencyKey: key, to: .completed)
        let record = try JSONParser.parse(settled.json)
        #expect(record["v"] == .number("2") && record["settled"]?.stringValue == "status")
        #expect(record["ledger"]?.objectMembers?.map(\.key) == ["fingerprint", "currency", "amountMinor", "effects"])
        #expect(try s.store.verify().count == 3)
        let after = try confirmed(Self.payment(key), s.engine).handle()
        #expect(after.code == .success && after.record?.jws == settled.jws && s.host.calls.load(ordering: .relaxed) == 1)
    }

    @Test func aCustomIntentKilledInsideHandleIsNotHandledAgain() throws {
        let s = try setup()
        let key = "crashed-custom"
        // The claim a money-moving custom intent takes before its host's handle, left by a killed process.
        let claims = DeadProcessClaims(store: s.store)
        let killer = KillingIntentHost()
        let catalog = CustomIntentCatalog()
        try catalog.add(try JSONParser.parse(Self.roundUp))
        catalog.setHost(killer)
        var dialog = DialogOptions()
        dialog.requireAgreement = false
        let engine = Engine(
            directory: s.store, ledger: s.store, gate: s.engine.gate, dialog: dialog, customIntents: catalog, claims: claims,
            today: { SystemClock().today() })
        #expect(throws: TenderError.self) { _ = try confirmed(Self.roundUp(key), engine).handle() }
        #expect(killer.calls.load(ordering: .relaxed) == 1)
        #expect(throws: TenderError.self) { _ = try confirmed(Self.roundUp(key), s.engine).handle() }
        #expect(s.host.calls.load(ordering: .relaxed) == 0)
        let settled = try s.store.changeStatus(idempotencyKey: key, to: .completed)
        let after = try confirmed(Self.roundUp(key), s.engine).handle()
        #expect(after.code == .success && after.record?.jws == settled.jws && s.host.calls.load(ordering: .relaxed) == 0)
    }

    /// A custom intent host killed inside handle.
    private final class KillingIntentHost: CustomIntentHost {
        let calls = Atomic<Int>(0)
        func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
            calls.add(1, ordering: .relaxed)
            throw .internal("killed")
        }
        func values(intent: String, parameter: String) throws(TenderError) -> [String] { [] }
    }

    @Test func aClaimHeldNowIsNotSettledByStatus() throws {
        let s = try setup()
        let call = HostCall(idempotencyKey: "held-now", fingerprint: "f", body: Array(#""ledger":{}"#.utf8))
        guard case let .claimed(token) = try s.store.claim(call) else { Issue.record("the free key was not claimed"); return }
        #expect(throws: TenderError.wrongState("a session is asking the host to pay under the idempotency key held-now now; wait for its answer")) {
            _ = try s.store.changeStatus(idempotencyKey: "held-now", to: .completed)
        }
        let other = HostCall(idempotencyKey: "held-now", fingerprint: "g", body: [])
        #expect(throws: TenderError.self) { _ = try s.store.claim(other) }  // other parameters: a conflict, at once
        s.store.finish(token)
        #expect(throws: TenderError.self) { _ = try s.store.claim(call) }  // now an unknown outcome
    }
}
