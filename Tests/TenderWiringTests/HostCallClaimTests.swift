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
        // An earlier build sealed the claim it wrote, as this one does: seal the edited body again with the home's key.
        try reseal(key, s.store, db)

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

    // MARK: sealed claims: settling signs a claim's body, so only a claim Tender wrote, sealed by the key signing now, is settled

    /// Seals the claim under `key` again, as it stands now, with the key `store` signs with (a test's edit of a genuine claim).
    private func reseal(_ key: String, _ store: SQLiteStore, _ db: Database) throws {
        let claim = try #require(try claimRow(key, db))
        let signer = try store.keys.signer(keyID: try store.activeKey().keyID)
        let seal = try store.sealClaim(key, fingerprint: claim.fingerprint, body: claim.body, token: claim.token, signer: signer)
        try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = ?", [seal.keyID, seal.seal, key]).run()
    }

    /// The stored claim's columns.
    private struct ClaimRow {
        let fingerprint: String, body: String, token: String, owner: String, sealKeyID: String?, seal: String?
    }

    private func claimRow(_ key: String, _ db: Database) throws -> ClaimRow? {
        let row = try db.statement("SELECT fingerprint, body, token, owner, seal_kid, seal FROM claims WHERE idempotency_key = ?", [key])
        guard try row.step() else { return nil }
        let claim = ClaimRow(
            fingerprint: row.text(0) ?? "", body: row.text(1) ?? "", token: row.text(2) ?? "", owner: row.text(3) ?? "",
            sealKeyID: row.text(4), seal: row.text(5))
        _ = try row.step()
        return claim
    }

    /// Settling `key` either way is refused as tampering, signing and changing nothing.
    private func expectRefused(
        _ key: String, _ s: Setup, naming words: String, verifies: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try s.store.ledgerEntries().count
        for status in [PaymentStatus.completed, .failed] {
            do {
                _ = try s.store.changeStatus(idempotencyKey: key, to: status)
                Issue.record("a claim whose seal does not check was settled \(status.rawValue)", sourceLocation: sourceLocation)
            } catch {
                guard case .ledgerTampered = error, error.message.contains(words) else {
                    Issue.record("expected ledgerTampered naming \(words), got \(error)", sourceLocation: sourceLocation)
                    continue
                }
            }
        }
        #expect(try s.store.ledgerEntries().count == before, sourceLocation: sourceLocation)
        if verifies { #expect(try s.store.verify().count == before, sourceLocation: sourceLocation) }
    }

    @Test func aClaimWithoutASealIsRefusedAndOneWithItsSealSettles() throws {
        let s = try setup()
        let key = "unsealed"
        try killInsideSend(Self.payment(key), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let genuine = try #require(try claimRow(key, db))
        let active = try s.store.activeKey().keyID
        #expect(genuine.sealKeyID == active && genuine.seal != nil)
        try db.statement("UPDATE claims SET seal_kid = NULL, seal = NULL WHERE idempotency_key = ?", [key]).run()
        try expectRefused(key, s, naming: "carries no seal")
        try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = ?", [genuine.sealKeyID, genuine.seal, key]).run()
        let settled = try s.store.changeStatus(idempotencyKey: key, to: .completed)
        #expect(settled.json.contains(#""settled":"status""#) && !settled.jws.isEmpty)
        #expect(try s.store.verify().count == 2)
    }

    /// Adversary: writes the store, cannot sign. A claim they add (a copy of a genuine one's record under a key of their
    /// own, marking nothing or anything), with no seal, or with a genuine claim's seal, or its record edited, is refused.
    @Test func aForgedOrEditedClaimOrACopiedSealIsRefused() throws {
        let s = try setup()
        try killInsideSend(Self.payment("genuine"), s)
        try killInsideSend(Self.payment("other"), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let genuine = try #require(try claimRow("genuine", db))
        let other = try #require(try claimRow("other", db))

        // A forged claim: the genuine record under the key "forged", no seal, then the genuine claim's seal.
        let forgedBody = genuine.body.replacing(#""idempotencyKey":"genuine""#, with: #""idempotencyKey":"forged""#)
        #expect(forgedBody != genuine.body)
        try db.statement(
            "INSERT INTO claims (idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms) VALUES (?, ?, ?, 'calling', NULL, ?, ?, 0)",
            ["forged", genuine.fingerprint, forgedBody, "forged-token", genuine.owner]
        ).run()
        try expectRefused("forged", s, naming: "carries no seal")
        try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = 'forged'", [genuine.sealKeyID, genuine.seal]).run()
        try expectRefused("forged", s, naming: "does not match its seal")

        // The genuine claim's record edited after it was sealed (five dollars become four).
        let edited = genuine.body.replacing(#""amountMinor":500"#, with: #""amountMinor":400"#)
        #expect(edited != genuine.body)
        try db.statement("UPDATE claims SET body = ? WHERE idempotency_key = 'genuine'", [edited]).run()
        try expectRefused("genuine", s, naming: "does not match its seal")
        try db.statement("UPDATE claims SET body = ? WHERE idempotency_key = 'genuine'", [genuine.body]).run()

        // Another claim's seal (same key, same home, another token and key).
        try db.statement("UPDATE claims SET seal = ? WHERE idempotency_key = 'genuine'", [other.seal]).run()
        try expectRefused("genuine", s, naming: "does not match its seal")
        // Its own seal with another token (the seal covers the token).
        try db.statement("UPDATE claims SET seal = ?, token = 'replayed-token' WHERE idempotency_key = 'genuine'", [genuine.seal]).run()
        try expectRefused("genuine", s, naming: "does not match its seal")
        try db.statement("UPDATE claims SET token = ? WHERE idempotency_key = 'genuine'", [genuine.token]).run()

        // Left as Tender wrote them, the genuine claims settle, either way.
        #expect(try s.store.changeStatus(idempotencyKey: "genuine", to: .completed).json.contains(#""settled":"status""#))
        #expect(try s.store.changeStatus(idempotencyKey: "other", to: .failed).jws.isEmpty)
        #expect(try s.store.verify().count == 2)
    }

    /// A claim sealed before a rotation settles after it (the rotation sealed it again under the new key); its seal by
    /// the retired key, written back, is refused, and a forged claim is not sealed by the rotation.
    @Test func aRotationBetweenClaimAndSettleSealsGenuineClaimsOnly() throws {
        let s = try setup()
        try killInsideSend(Self.payment("before-rotation"), s)
        try killInsideSend(Self.payment("restored"), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let genuine = try #require(try claimRow("before-rotation", db))
        let restored = try #require(try claimRow("restored", db))
        try db.statement(
            "INSERT INTO claims (idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms, seal_kid, seal) "
                + "VALUES ('forged', ?, ?, 'calling', NULL, 'forged-token', ?, 0, ?, ?)",
            [genuine.fingerprint, genuine.body.replacing(#""before-rotation""#, with: #""forged""#), genuine.owner,
             genuine.sealKeyID, genuine.seal]
        ).run()
        let old = try s.store.activeKey().keyID
        let new = try s.store.rotateKey().keyID
        #expect(new != old)
        #expect(try claimRow("before-rotation", db)?.sealKeyID == new)
        #expect(try claimRow("forged", db)?.sealKeyID == old)
        try expectRefused("forged", s, naming: "is not the key signing here")

        try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = 'restored'", [restored.sealKeyID, restored.seal]).run()
        try expectRefused("restored", s, naming: "is not the key signing here")

        let settled = try s.store.changeStatus(idempotencyKey: "before-rotation", to: .completed)
        #expect(try CompactJWS(parsing: settled.jws).keyID == new)
        #expect(try s.store.verify().count == 3)  // balances, rotation, the settled payment
    }

    /// A seal by a key that is not this home's: another home's claim copied whole (its kid, seal and token), a key the
    /// adversary holds recorded beside the home's, or put in place of the home's recorded public key.
    @Test func aSealByAnotherHomesOrAForgedKeyIsRefused() throws {
        let s = try setup()
        let theirs = try setup()
        try killInsideSend(Self.payment("claimed"), s)
        try killInsideSend(Self.payment("claimed"), theirs)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let genuine = try #require(try claimRow("claimed", db))
        let other = try #require(try claimRow("claimed", try Database(path: theirs.home.path + "/home/" + SQLiteStore.fileName)))
        #expect(other.sealKeyID != genuine.sealKeyID)

        // Another home's claim, copied whole.
        try db.statement(
            "UPDATE claims SET fingerprint = ?, body = ?, token = ?, seal_kid = ?, seal = ? WHERE idempotency_key = 'claimed'",
            [other.fingerprint, other.body, other.token, other.sealKeyID, other.seal]
        ).run()
        try expectRefused("claimed", s, naming: "is not the key signing here")

        // Their key recorded beside the home's (its real thumbprint as kid), sealing the claim: not the key signing here.
        let theirKey = try #require(try theirs.store.publicKeys().first)
        let theirSigner = try theirs.store.keys.signer(keyID: theirKey.keyID)
        try db.statement(
            "INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES (?, ?, 0, 0)", [theirKey.keyID, theirKey.publicKey]
        ).run()
        let forged = "forged-body"
        let sealed = try s.store.sealClaim("claimed", fingerprint: genuine.fingerprint, body: forged, token: genuine.token, signer: theirSigner)
        try db.statement(
            "UPDATE claims SET fingerprint = ?, body = ?, token = ?, seal_kid = ?, seal = ? WHERE idempotency_key = 'claimed'",
            [genuine.fingerprint, forged, genuine.token, sealed.keyID, sealed.seal]
        ).run()
        try expectRefused("claimed", s, naming: "is not the key signing here")

        // Their seal under the home's kid, with their public key put in the home's row: the thumbprint does not match.
        let ours = try #require(genuine.sealKeyID)
        let message = ClaimSeal.message(keyID: ours, idempotencyKey: "claimed", fingerprint: genuine.fingerprint, body: forged, token: genuine.token)
        try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = 'claimed'", [ours, Base64URL.encode(try theirSigner.sign(message))]).run()
        try expectRefused("claimed", s, naming: "does not match its seal")
        let ourKey = try #require(try s.store.publicKeys().first { $0.keyID == ours })
        try db.statement("UPDATE signing_keys SET public_key = ? WHERE kid = ?", [theirKey.publicKey, ours]).run()
        try expectRefused("claimed", s, naming: "whose recorded public key is not that key's", verifies: false)
        try db.statement("UPDATE signing_keys SET public_key = ? WHERE kid = ?", [ourKey.publicKey, ours]).run()
        try db.statement("DELETE FROM signing_keys WHERE kid = ?", [theirKey.keyID]).run()

        // As Tender wrote it, it settles.
        try db.statement("UPDATE claims SET body = ?, seal = ? WHERE idempotency_key = 'claimed'", [genuine.body, genuine.seal]).run()
        #expect(try s.store.changeStatus(idempotencyKey: "claimed", to: .completed).json.contains(#""settled":"status""#))
    }

    /// Adversary: writes the store, cannot sign, and kept a genuine claim's whole row (its seal checks). Written back
    /// after the claim was settled and its payment recorded, it is never a second payment: the key's payment in the
    /// ledger decides first, so a retry asks the host nothing and settling again signs no second record.
    @Test func aSettledClaimWrittenBackIsNeverASecondPayment() throws {
        let s = try setup()
        let key = "replayed"
        try killInsideSend(Self.payment(key), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        let columns = "idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms, seal_kid, seal"
        let kept = try db.statement("SELECT \(columns) FROM claims WHERE idempotency_key = ?", [key]).rows { row in
            (0..<10).map { row.text($0) }
        }
        let row = try #require(kept.first)
        let settled = try s.store.changeStatus(idempotencyKey: key, to: .completed)
        #expect(try claimRow(key, db) == nil)
        try db.statement("INSERT INTO claims (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row.map { $0 as (any StoreBindable)? }).run()
        #expect(try claimRow(key, db) != nil)

        let retry = try confirmed(Self.payment(key), s.engine).handle()
        #expect(retry.code == .success && retry.record?.jws == settled.jws)
        #expect(s.host.calls.load(ordering: .relaxed) == 0)
        _ = try? s.store.changeStatus(idempotencyKey: key, to: .completed)
        let payments = try db.statement("SELECT count(*) FROM ledger WHERE type = 'payment' AND idempotency_key = ?", [key]).rows { $0.int64(0) }
        #expect(payments == [1])
        #expect(try s.store.verify().count == 2)
    }

    /// Adversary: writes the store, cannot sign, and sets its schema version back before claims were sealed (11, or
    /// 9 before claims), hoping an open treats the claims as an older build's. The open refuses the store (migrating
    /// again would add the seal columns twice: one transaction, rolled back), changing nothing; put back, the genuine
    /// claim settles.
    @Test func aSchemaVersionSetBackNeverUnsealsClaims() throws {
        let s = try setup()
        let key = "downgraded"
        try killInsideSend(Self.payment(key), s)
        let db = try Database(path: s.home.path + "/home/" + SQLiteStore.fileName)
        for version in [11, 9] {
            try db.execute("PRAGMA user_version = \(version)")
            #expect(throws: TenderError.self) {
                _ = try EngineFactory.openStore(home: s.home.path + "/home", access: .readWrite(newLedger: false))
            }
            let kept = try db.statement("PRAGMA user_version").rows { $0.int64(0) }
            #expect(kept == [Int64(version)])
            #expect(try claimRow(key, db)?.seal != nil)
        }
        try db.execute("PRAGMA user_version = \(Schema.version)")
        let reopened = try EngineFactory.openStore(home: s.home.path + "/home", access: .readWrite(newLedger: false))
        #expect(try reopened.changeStatus(idempotencyKey: key, to: .completed).json.contains(#""settled":"status""#))
    }
}
