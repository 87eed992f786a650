// SPDX-License-Identifier: Apache-2.0
/// One dialog about one intent, SiriKit's resolve → confirm → handle, for
/// every intent of the Payments domain.
///
/// The person's choices are explicit state, kept across resolves, never
/// inferred again. A parameter asked the same question more than the
/// engine's `maxPrompts` times in a row ends the dialog
/// (``TenderError/dialogEnded(_:)``); a new question about it (the person
/// chosen, now which handle) starts the count again.
/// Before handle moves money the person is asked the confirmation question
/// (``confirmationQuestion``) and the host records the answer with
/// ``agree(_:)``: no ends the dialog and pays nothing; without a yes handle
/// throws ``TenderError/notAgreed(_:)`` (unless the engine's
/// `dialog.requireAgreement` is false).
/// A session belongs to one thread at a time; it is not Sendable. Every
/// method either succeeds or throws and leaves the session as it was
/// (except ending it).
public final class DialogSession {
    enum Phase {
        case resolving
        case ready(Confirmation.Plan)
        case handled(HandleOutcome)
        case ended(String)
    }

    let engine: Engine
    private(set) var intent: Intent
    private var dialog: any IntentDialog
    private var state = DialogState()
    private var prompts: [String: Int] = [:]
    private var lastResults: [String: ResolutionResult] = [:]
    var phase = Phase.resolving
    /// The question the person's next reply answers, and what may replace a refused value (``reply(_:)``).
    var turn = SpokenTurn()
    /// The person's yes to the question of the last ready confirm; nil until asked and answered.
    var agreed = false
    let recordID = RandomID.make()
    /// The directory as the last store-reading call read it, with the store's mark then (``reading()``).
    private var lastReading: (mark: DirectoryMark, directory: DirectorySnapshot)?

    /// The key naming this payment: the host's, else one the session makes (32 hex digits, unique, in the order this process made them).
    public let idempotencyKey: String
    /// How to ask the person to authenticate, when the policy requires it.
    public var conversation: (any Conversation)?
    /// Why the last handle answered failureCredentialsUnverified, if it did.
    public internal(set) var lastDenial: AuthenticationDenial?

    /// Starts a dialog about `intent`.
    public init(engine: Engine, intent: Intent) {
        self.engine = engine
        self.intent = intent
        self.dialog = IntentDialogs.dialog(for: intent.schema)
        self.idempotencyKey = intent.idempotencyKey ?? RandomID.makeOrdered()
    }

    /// Starts a dialog from the host's JSON intent (docs/intents.md): a built-in intent or one of the engine's custom intents.
    public convenience init(engine: Engine, json: JSONValue) throws(TenderError) {
        self.init(engine: engine, intent: try Intent(json: json, custom: engine.customIntents))
    }

    /// The question the person answers before handle moves money ("Send $20 to
    /// John Baily from Checking? There is no fee."): set while the last confirm
    /// answered ready for an intent that moves money, else nil.
    public var confirmationQuestion: String? {
        switch phase {
        case let .ready(.payment(plan)): return plan.question
        case let .ready(.custom(plan)) where plan.movesMoney: return plan.question
        default: return nil
        }
    }

    /// Whether a confirmation question is open, without writing its text.
    private var asksForAgreement: Bool {
        switch phase {
        case .ready(.payment): return true
        case let .ready(.custom(plan)): return plan.movesMoney
        default: return false
        }
    }

    /// Records the person's answer to ``confirmationQuestion``: yes lets handle
    /// move money; no ends the dialog (handle then throws
    /// ``TenderError/dialogEnded(_:)``) and nothing is paid. Throws
    /// ``TenderError/wrongState(_:)`` when no question is open (confirm has not
    /// answered ready for a payment, or the session was handled).
    public func agree(_ yes: Bool) throws(TenderError) {
        try checkOpen()
        guard asksForAgreement else {
            throw .wrongState("no confirmation question is open: confirm must answer ready for an intent that moves money first")
        }
        if yes {
            agreed = true
        } else {
            agreed = false
            phase = .ended("the person said no to the payment; nothing was paid")
        }
    }

    /// How many replies the engine allows one question (`dialog.maxPrompts`).
    public var maxPrompts: Int { engine.maxPrompts }

    /// The intent's name, e.g. "pay_bill"; while ``DestinationQuestion`` is open, the likelier of the two it chooses between.
    public var intentName: String { intent.schema.name }

    /// What `parameter` of this intent holds, or nil when it has no such parameter.
    public func kind(of parameter: String) -> ParameterKind? { intent.schema.kind(of: parameter) }

    private func checkOpen() throws(TenderError) {
        switch phase {
        case .handled: throw .wrongState("the intent was already handled")
        case let .ended(reason): throw .dialogEnded(reason)
        default: break
        }
    }

    // MARK: resolve

    /// Resolves every parameter; the ones that need an answer become the open
    /// questions. Throws ``TenderError/dialogEnded(_:)`` when one has been
    /// asked the same question more than the engine's `maxPrompts` times in a row.
    public func resolve() throws(TenderError) -> [ParameterResolution] {
        try checkOpen()
        let (results, offers, resolved) = try readingTogether { () throws(TenderError) in
            var context = DialogContext(engine: engine, intent: intent, state: state, idempotencyKey: idempotencyKey, directory: try reading())
            let raw: [ParameterResolution]
            if intent.asksDestination {
                // Where the money goes decides the intent, so it is the only question until answered.
                raw = [DestinationQuestion.resolution]
                context.state.questions = [DestinationQuestion.parameter: .choose(key: DestinationQuestion.parameter, ids: DestinationQuestion.intents)]
            } else {
                raw = try dialog.resolve(&context)
            }
            let (results, offers) = try spoken(raw, directory: context.directory)
            return (results, offers, context.state)
        }
        var counts = prompts
        for item in results {
            // A new question (the person chosen, now which handle) is progress; the same question again is not.
            let repeated = lastResults[item.parameter] == item.result
            counts[item.parameter] = item.result.isResolved ? 0 : (repeated ? counts[item.parameter, default: 0] : 0) + 1
            if counts[item.parameter, default: 0] > engine.maxPrompts {
                let reason = "\(item.parameter) is still unresolved after \(engine.maxPrompts) prompts; the dialog ended"
                phase = .ended(reason)
                throw .dialogEnded(reason)
            }
        }
        prompts = counts
        lastResults = Dictionary(results.map { ($0.parameter, $0.result) }, uniquingKeysWith: { a, _ in a })
        state = resolved
        phase = .resolving
        agreed = false
        turn = SpokenTurn(open: results.first { !$0.result.isResolved }, offers: offers)
        return results
    }

    /// The resolution document: `{"intent", "complete", "parameters"}`.
    public func resolveJSON() throws(TenderError) -> JSONValue {
        let results = try resolve()
        return .object([
            ("intent", .string(intentName)), ("complete", .bool(results.allSatisfy(\.result.isResolved))),
            ("parameters", .array(results.map(\.json))),
        ])
    }

    // MARK: answer

    /// Applies one answer to an open question of the last resolve. Throws
    /// ``TenderError/notAsked(_:)`` for a question not asked (or answered in
    /// the wrong way), ``TenderError/unknownOption(_:)`` for an id not offered.
    public func answer(_ answer: Answer) throws(TenderError) {
        try checkOpen()
        guard let question = state.questions[answer.parameter] else {
            throw .notAsked("no open question about \"\(answer.parameter.prefix(64))\"; call resolve first")
        }
        if intent.asksDestination, answer.parameter == DestinationQuestion.parameter, case let .choose(id) = answer.kind {
            guard case let .choose(_, ids) = question, ids.contains(id) else {
                throw .unknownOption("\"\(id.prefix(64))\" was not one of the options offered")
            }
            // The chosen intent starts afresh: its own parameters, questions and prompt counts.
            intent = DestinationQuestion.intent(intent, choosing: id)
            dialog = IntentDialogs.dialog(for: intent.schema)
            (state, prompts, lastResults, phase, agreed) = (DialogState(), [:], [:], .resolving, false)
            return
        }
        var next = state
        switch (question, answer.kind) {
        case let (.choose(key, ids), .choose(id)):
            guard ids.contains(id) else { throw .unknownOption("\"\(id.prefix(64))\" was not one of the options offered") }
            if key == answer.parameter { next.forget(answer.parameter) }
            next.chosen[key] = id
        case let (.confirm(key, choices), .confirm(yes)):
            if yes {
                next.chosen.merge(choices) { _, new in new }
            } else {
                next.declined.insert(key)
            }
        case let (.supplyValue, .value(value)):
            try intent.supply(value, for: answer.parameter)
            next.forget(answer.parameter)
        case let (.supplyValue, .choose(id)):
            // One of the values offered instead of a refused one (the resolution's "options").
            guard let offer = turn.offers[answer.parameter]?.first(where: { $0.option.id == id }) else {
                throw .unknownOption("\"\(id.prefix(64))\" was not one of the options offered")
            }
            try intent.supply(offer.value, for: answer.parameter)
            next.forget(answer.parameter)
        default:
            throw .notAsked("the question about \"\(answer.parameter)\" is not answered that way")
        }
        next.questions[answer.parameter] = nil
        state = next
        phase = .resolving
        agreed = false
        turn = SpokenTurn()
    }

    // MARK: confirm

    /// Checks that the resolved intent can be carried out and answers ready
    /// or a failure code, with the response JSON (the resolved intent, and
    /// what the intent's response carries: bill details, fee, search result).
    /// A person not signed in to the payment service gets
    /// failureCredentialsUnverified. Throws ``TenderError/wrongState(_:)``
    /// while a parameter is unresolved or after handle.
    public func confirm() throws(TenderError) -> (code: ResponseCode, response: JSONValue) {
        try checkOpen()
        if intent.asksDestination {
            throw .wrongState("\(DestinationQuestion.parameter) is not resolved (to someone else, or between the person's own accounts?); resolve and answer first")
        }
        // The store is read in one transaction; the host's canSend, if any, is called after it.
        let checked = try readingTogether { () throws(TenderError) -> Result<(Confirmation, retry: Bool, signedIn: Bool), ConfirmFailure> in
            var context = DialogContext(engine: engine, intent: intent, state: state, idempotencyKey: idempotencyKey, directory: try reading())
            if let open = try dialog.resolve(&context).first(where: { !$0.result.isResolved }) {
                // An amount outside the limits is a confirm failure in SiriKit's codes, not a wrong call.
                if case let .unsupported(reason) = open.result, let code = ResponseCode.failure(for: reason, of: intent.schema) {
                    return .failure(ConfirmFailure(code: code, parameter: open.parameter, reason: reason))
                }
                throw .wrongState("\(open.parameter) is not resolved; resolve and answer first")
            }
            let confirmation = try dialog.confirm(&context)
            if case let .payment(plan)? = confirmation.candidate, try alreadyPaid(plan) {
                // A retry of a payment made before: handle returns its record; sign-in, funds and limits no longer matter.
                return .success((Confirmation(.ready, confirmation.members, plan: .payment(plan)), retry: true, signedIn: true))
            }
            return .success((confirmation, retry: false, signedIn: try context.directory.isSignedIn()))
        }
        var confirmation: Confirmation
        let (retry, signedIn): (Bool, Bool)
        switch checked {
        case let .failure(failed):
            phase = .resolving
            return (failed.code, .object([("code", .string(failed.code.name)), ("parameter", .string(failed.parameter)), ("reason", .string(failed.reason))]))
        case let .success(found): (confirmation, retry, signedIn) = found
        }
        if retry {
            // A retry of a payment made before: ready, without asking the host again.
        } else if !signedIn {
            confirmation = Confirmation(.failureCredentialsUnverified, [("reason", .string("notSignedIn"))])
        } else if let backend = engine.backend, case let .payment(plan)? = confirmation.plan {
            let code = try backend.canSend(backendJSON(plan))
            if code != .ready { confirmation = Confirmation(hostFailure(code), confirmation.members) }
        }
        phase = confirmation.plan.map(Phase.ready) ?? .resolving
        agreed = false
        var members: [(key: String, value: JSONValue)] = [("code", .string(confirmation.code.name))] + confirmation.members
        if let question = confirmationQuestion { members.append(("question", .string(question))) }
        if let say = speaker.confirmation(confirmation.code, plan: confirmation.candidate) { members.append(("say", .string(say))) }
        return (confirmation.code, .object(members))
    }

    /// A confirm that found an amount outside the limits: SiriKit's failure code, the parameter and the reason.
    private struct ConfirmFailure: Error {
        let code: ResponseCode
        let parameter: String
        let reason: String
    }

    /// Runs `body`, which reads the store and calls no host code, in one read transaction
    /// (``Directory/readingTogether(_:)``); a custom intent's dialog may call its host, so it reads as before.
    private func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        guard intent.schema.custom == nil else { return try body() }
        return try engine.directory.readingTogether(body)
    }

    /// The directory reading for a call running inside ``readingTogether(_:)``: the last call's, when the store's mark
    /// is the one it was read at (nothing in the store changed since: no directory edit, no payment, no other process's
    /// write), else a new one, kept with the mark. A confirm resolves again and decides on what it reads, so reusing its
    /// resolve's reading changes nothing it answers while the store is unchanged; the payment is checked again in its
    /// write transaction (paid before, funds, bill, account) whatever confirm read. Without a mark (a host's
    /// directory, a custom intent, a store busy writing, PostgreSQL) every call reads afresh.
    private func reading() throws(TenderError) -> DirectorySnapshot? {
        guard intent.schema.custom == nil, let mark = try engine.directory.stateMark() else {
            lastReading = nil
            return nil
        }
        if let last = lastReading, last.mark == mark { return last.directory }
        let fresh = DirectorySnapshot(engine.directory)
        lastReading = (mark, fresh)
        return fresh
    }

    /// A host's failure code as this intent answers it: one of its own failure codes, else plain failure.
    private func hostFailure(_ code: ResponseCode) -> ResponseCode {
        code.name.hasPrefix("failure") && ResponseCode.codes(of: intent.schema).contains(code) ? code : .failure
    }

    private func backendJSON(_ plan: PaymentPlan) -> JSONValue {
        guard case let .object(members) = plan.intentJSON else { return plan.intentJSON }
        return .object(members + [("idempotencyKey", .string(idempotencyKey))])
    }

    /// Whether this session's key already recorded exactly `plan`. A key the
    /// session made itself is new until this session handles, so only the
    /// host's keys are looked up.
    private func alreadyPaid(_ plan: PaymentPlan) throws(TenderError) -> Bool {
        guard intent.idempotencyKey != nil else { return false }
        return try engine.ledger.payment(idempotencyKey: idempotencyKey)?.fingerprint == plan.fingerprint
    }

    // MARK: handle

    /// Carries out the confirmed intent, after re-authenticating the person
    /// when the engine's policy asks for it (nothing is done when that fails:
    /// the answer is failureCredentialsUnverified and ``lastDenial`` says
    /// why). An intent that moves money is recorded exactly once per
    /// idempotency key (handling again returns the original record); a search
    /// answers its result. Throws ``TenderError/wrongState(_:)`` unless confirm
    /// answered ready, ``TenderError/notAgreed(_:)`` for an intent that moves
    /// money before ``agree(_:)`` recorded a yes (when the engine requires it),
    /// ``TenderError/dialogEnded(_:)`` after a no,
    /// ``TenderError/idempotencyConflict(_:)`` when the key already recorded something else.
    /// With a host that moves the money (``Engine/backend``), its `send` is called at most once per key
    /// across threads and processes, under a durable claim (``HostCallClaims``): a session meeting the
    /// claim waits for its outcome and answers it; ``TenderError/outcomeUnknown(_:)`` when the claim's
    /// holder ended before recording the host's answer; ``TenderError/storeBusy(_:)`` when the wait runs out.
    public func handle() throws(TenderError) -> HandleOutcome {
        let before = phase
        var outcome = try carryOut()
        guard outcome.say == nil else { return outcome }
        var plan: Confirmation.Plan?
        if case let .ready(ready) = before { plan = ready }
        outcome.say = speaker.outcome(outcome, plan: plan)
        if case .handled = phase { phase = .handled(outcome) }
        return outcome
    }

    /// ``handle()`` without the outcome's sentence.
    private func carryOut() throws(TenderError) -> HandleOutcome {
        lastDenial = nil
        let plan: Confirmation.Plan
        switch phase {
        case .resolving: throw .wrongState("confirm must answer ready before handle")
        case let .ended(reason): throw .dialogEnded(reason)
        case let .handled(outcome): return outcome
        case let .ready(ready): plan = ready
        }
        switch plan {
        case let .report(result):
            if engine.gate.policy.restrictedIntents.contains(intentName) {
                lastDenial = try engine.gate.check(intent: intentName, amount: nil, payeeID: "", device: intent.device, conversation: conversation)
                if let denial = lastDenial { return HandleOutcome(code: .failureCredentialsUnverified, denial: denial) }
            }
            let outcome = HandleOutcome(code: .success, result: result)
            phase = .handled(outcome)
            return outcome
        case let .custom(custom):
            return try handle(custom)
        case let .payment(payment):
            if engine.requiresAgreement, !agreed {
                throw .notAgreed("the person has not said yes to the confirmation question; ask it and record the answer (agree) before handle")
            }
            let paidBefore = try alreadyPaid(payment)
            // A retry of a payment already made pays nothing, so it asks nothing;
            // every other payment passes the gate, which audits it.
            if !paidBefore {
                lastDenial = try engine.gate.check(
                    intent: intentName, amount: payment.amount, payeeID: payment.partyID, device: intent.device, conversation: conversation)
                if let denial = lastDenial { return HandleOutcome(code: .failureCredentialsUnverified, denial: denial) }
            }
            if let backend = engine.backend, !paidBefore {
                // The host is asked at most once per key, across threads and processes (docs/outcome.md).
                let claims = try hostClaims()
                let call = hostCall(payment)
                switch try claims.claim(call) {
                case .recorded: return try recordedPayment(payment)
                case let .failed(code):
                    phase = .resolving
                    return HandleOutcome(code: hostFailure(code))
                case let .claimed(token):
                    defer { claims.finish(token) }
                    let code: ResponseCode
                    do throws(TenderError) { code = try backend.send(backendJSON(payment)) } catch {
                        try claims.release(token, failure: .failure)
                        throw error
                    }
                    guard code == .success else {
                        try claims.release(token, failure: code)
                        phase = .resolving
                        return HandleOutcome(code: hostFailure(code))
                    }
                    return try submit(payment, claimed: true, prepared: call)
                }
            }
            return try submit(payment)
        }
    }

    /// The record's members for `payment` (format 2, ``RecordFormat``) that do not depend on its place in the ledger, with the
    /// `"ledger"` member: the columns the store keeps beside the record, signed in it too so verify can check them.
    /// `fingerprint` is `payment`'s, and `moved` its ``storeMovements(_:)``, each computed once by the caller.
    func recordBody(_ payment: PaymentPlan, fingerprint: String, moved: StoreMovements) -> [UInt8] {
        let columns = PaymentSubmission.ledgerColumns(
            fingerprint: fingerprint, amount: payment.amount,
            effects: PaymentEffects(movements: moved.now, onCompletion: moved.onCompletion, bill: payment.paidBill))
        return payment.payloadBody(id: recordID, idempotencyKey: idempotencyKey) + Array(",".utf8) + JSONWriter.members([("ledger", columns)])
    }

    /// The balances the store moves for a payment, now and when it completes.
    typealias StoreMovements = (now: [BalanceMovement], onCompletion: [BalanceMovement])

    /// The balances the store moves for `payment`: none when the host's backend moves the money.
    func storeMovements(_ payment: PaymentPlan) -> StoreMovements {
        engine.backend == nil ? (payment.movements, payment.completionMovements) : ([], [])
    }

    /// Records `payment` in the ledger (moving its balances) and ends the session handled; a custom
    /// intent's `response` is carried in the outcome. `claimed`: this session holds the key's claim
    /// (``HostCallClaims``), which the payment's transaction removes. `prepared`: the claim made for this very
    /// `payment` (``hostCall(_:)``), whose fingerprint and record body are reused rather than built again.
    func submit(
        _ payment: PaymentPlan, response: CustomIntentResponse? = nil, claimed: Bool = false, prepared: HostCall? = nil
    ) throws(TenderError) -> HandleOutcome {
        let key = idempotencyKey
        let fingerprint = prepared?.fingerprint ?? payment.fingerprint
        let moved = storeMovements(payment)
        let body = prepared?.body ?? recordBody(payment, fingerprint: fingerprint, moved: moved)
        let submission = PaymentSubmission(
            idempotencyKey: key, fingerprint: fingerprint, amount: payment.amount,
            movements: moved.now, payee: payment.payee, paidBill: payment.paidBill,
            completionMovements: moved.onCompletion, paidParty: payment.paidParty, releasesClaim: claimed
        ) { position in
            position.payload(type: "payment", body: body)
        }
        switch try engine.ledger.submit(submission) {
        case let .paid(record), let .alreadyPaid(record):
            let outcome = HandleOutcome(code: response?.responseCode ?? .success, record: record, response: response)
            phase = .handled(outcome)
            return outcome
        case .insufficientFunds:
            phase = .resolving
            return HandleOutcome(code: .failureInsufficientFunds)
        case .billSettled:
            phase = .resolving
            return HandleOutcome(code: .failure)
        case .accountMissing:
            phase = .resolving
            return HandleOutcome(code: ResponseCode.codes(of: intent.schema).contains(.failureNoBankAccount) ? .failureNoBankAccount : .failure)
        }
    }
}
