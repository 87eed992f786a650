// SPDX-License-Identifier: Apache-2.0
extension DialogSession {
    /// The engine's claims; an engine without them (a brokered ledger) never asks a host to move money.
    func hostClaims() throws(TenderError) -> any HostCallClaims {
        guard let claims = engine.claims else {
            throw .wrongState("this engine's ledger keeps no claims on idempotency keys, so it cannot ask a host to move money exactly once")
        }
        return claims
    }

    /// What is claimed before the host is asked to make `payment`: the record kept if it pays.
    func hostCall(_ payment: PaymentPlan) -> HostCall {
        let fingerprint = payment.fingerprint
        return HostCall(
            idempotencyKey: idempotencyKey, fingerprint: fingerprint, body: recordBody(payment, fingerprint: fingerprint, moved: storeMovements(payment)))
    }

    /// The payment the claim found in the ledger (another session's, which this one waited for):
    /// handle answers its record as a retry does. Throws ``TenderError/idempotencyConflict(_:)`` for other parameters.
    func recordedPayment(_ payment: PaymentPlan) throws(TenderError) -> HandleOutcome {
        guard let earlier = try engine.ledger.payment(idempotencyKey: idempotencyKey) else {
            throw .internal("the claim on \(idempotencyKey) found a payment the ledger does not return")
        }
        guard earlier.fingerprint == payment.fingerprint else {
            throw .idempotencyConflict("the idempotency key \(idempotencyKey) already recorded a payment with other parameters")
        }
        let outcome = HandleOutcome(code: .success, record: earlier.record)
        phase = .handled(outcome)
        return outcome
    }
}
