// SPDX-License-Identifier: Apache-2.0
extension DialogSession {
    /// Handles a confirmed custom intent, with the built-in intents' rules: an intent that moves money
    /// needs the person's yes (``agree(_:)``) and is recorded exactly once per idempotency key (a retry
    /// returns the original record and response without asking the host again; the key used with other
    /// parameters is ``TenderError/idempotencyConflict(_:)`` before the host is asked), and its host is
    /// asked at most once per key, under a durable claim (``HostCallClaims``: sessions holding the same key
    /// wait for the first one's outcome; ``TenderError/outcomeUnknown(_:)`` after a crash in between); the gate
    /// authenticates the person when the engine's policy or the definition's restriction asks (a denial
    /// asks the host nothing). Then the host's handler answers a code and values; on success (or
    /// inProgress) a money-moving intent writes its signed record (pending while in progress), an
    /// information intent one only when its definition says `"recorded": true`. A failure code keeps
    /// the session confirmed so the host may try again. Throws ``TenderError/callback(_:)`` when no
    /// host is set, the host fails or answers something the definition does not allow; nothing is recorded then.
    func handle(_ plan: CustomIntentPlan) throws(TenderError) -> HandleOutcome {
        let definition = plan.definition
        if plan.movesMoney {
            guard plan.amount != nil else { throw .internal("\(definition.name) moves money without an amount") }
            if engine.requiresAgreement, !agreed {
                throw .notAgreed("the person has not said yes to the confirmation question; ask it and record the answer (agree) before handle")
            }
            if try engine.ledger.payment(idempotencyKey: idempotencyKey) != nil { return try recordedCustomPayment(plan) }
        }
        lastDenial = try engine.gate.check(
            intent: intentName, amount: plan.amount, payeeID: plan.partyID, device: intent.device, restriction: definition.restriction,
            customMovesMoney: plan.movesMoney, conversation: conversation)
        if let denial = lastDenial { return HandleOutcome(code: .failureCredentialsUnverified, denial: denial) }
        guard let host = engine.customIntents.host else {
            throw .callback("no host handles the custom intent \(definition.name): register one before handle")
        }
        // A money-moving intent's host is asked at most once per key, across threads and processes (docs/outcome.md).
        var claim: (claims: any HostCallClaims, token: String)?
        if plan.movesMoney, let payment = plan.payment(response: nil, status: .completed) {
            let claims = try hostClaims()
            switch try claims.claim(hostCall(payment)) {
            case .recorded: return try recordedCustomPayment(plan)
            case let .failed(code):
                phase = .resolving
                return HandleOutcome(code: code)
            case let .claimed(token): claim = (claims, token)
            }
        }
        defer { if let claim { claim.claims.finish(claim.token) } }
        let response: CustomIntentResponse
        do throws(TenderError) {
            response = try CustomIntentResponse(
                reply: try host.handle(plan.request(idempotencyKey: idempotencyKey, device: intent.device)), definition: definition, words: plan.words,
                language: language)
        } catch {
            // The host failed or answered what the definition does not allow: by the contract nothing moved.
            if let claim { try claim.claims.release(claim.token, failure: .failure) }
            throw error
        }
        let code = response.responseCode
        guard code == .success || code == .inProgress else {
            if let claim { try claim.claims.release(claim.token, failure: code) }
            phase = .resolving
            return HandleOutcome(code: code, response: response)
        }
        if plan.movesMoney, let payment = plan.payment(response: response, status: code == .inProgress ? .pending : .completed) {
            return try submit(payment, response: response, claimed: claim != nil)
        }
        var record: PaymentRecord?
        if definition.recorded {
            let body = JSONWriter.members(
                [("id", .string(recordID)), ("intent", .string(definition.name))] + plan.values
                    + [("response", response.recordJSON), ("idempotencyKey", .string(idempotencyKey))])
            record = try engine.ledger.recordIntent(idempotencyKey: idempotencyKey) { position in
                position.payload(type: PaymentRecord.intentEntryType, body: body)
            }
        }
        let outcome = HandleOutcome(code: code, record: record, response: response)
        phase = .handled(outcome)
        return outcome
    }

    /// The record kept under the session's key for `plan` (a retry, or the session this one waited for) and its response.
    /// Throws ``TenderError/idempotencyConflict(_:)`` when the key recorded other parameters.
    private func recordedCustomPayment(_ plan: CustomIntentPlan) throws(TenderError) -> HandleOutcome {
        guard let payment = plan.payment(response: nil, status: .completed), let earlier = try engine.ledger.payment(idempotencyKey: idempotencyKey) else {
            throw .internal("the payment under \(idempotencyKey) is not in the ledger")
        }
        guard earlier.fingerprint == payment.fingerprint else {
            throw .idempotencyConflict("the idempotency key \(idempotencyKey) already recorded a payment with other parameters")
        }
        let outcome = HandleOutcome(code: .success, record: earlier.record, response: try recordedResponse(earlier.record, plan))
        phase = .handled(outcome)
        return outcome
    }

    /// The response a money-moving custom intent's record kept, rendered again.
    private func recordedResponse(_ record: PaymentRecord, _ plan: CustomIntentPlan) throws(TenderError) -> CustomIntentResponse? {
        guard let kept = try JSONParser.parse(record.json)["response"] else { return nil }
        return try CustomIntentResponse(reply: kept, definition: plan.definition, words: plan.words, language: language)
    }
}
