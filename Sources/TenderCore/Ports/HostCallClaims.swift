// SPDX-License-Identifier: Apache-2.0
/// A payment about to be handed to the host (its payment service's `send`, or a money-moving custom
/// intent's `handle`): the key, the fingerprint of its parameters, and the record Tender keeps if the
/// host pays, so that `tender status KEY completed` can keep it when the host's answer was lost.
public struct HostCall: Sendable {
    public let idempotencyKey: String
    /// The canonical parameters: the same key with another fingerprint is a conflict.
    public let fingerprint: String
    /// The record's members that do not depend on its place in the ledger, as ``PaymentSubmission`` signs them
    /// (compact JSON members without braces, carrying the `"ledger"` member).
    public let body: [UInt8]

    public init(idempotencyKey: String, fingerprint: String, body: [UInt8]) {
        self.idempotencyKey = idempotencyKey
        self.fingerprint = fingerprint
        self.body = body
    }
}

/// What a claim on an idempotency key answers (``HostCallClaims/claim(_:)``).
public enum ClaimOutcome: Sendable, Equatable {
    /// The caller holds the key now: it asks the host, then records the payment with
    /// ``PaymentSubmission/releasesClaim`` set, or gives the key back with ``HostCallClaims/release(_:failure:)``.
    /// The string is the claim's token.
    case claimed(String)
    /// The key's payment is in the ledger (made before, or by the session this one waited for).
    case recorded
    /// The session this one waited for was answered this failure code by the host: nothing moved.
    case failed(ResponseCode)
}

/// Exactly once beyond Tender's own store: a durable claim on an idempotency key, committed before
/// the host is asked to move money, so that sessions of every thread and process using the store
/// ask the host at most once per key. Implemented by the embedded store. Thread-safe.
public protocol HostCallClaims: Sendable {
    /// Claims `call`'s key, waiting (bounded) while another session holds it: answers
    /// ``ClaimOutcome/claimed(_:)`` once this session may ask the host, ``ClaimOutcome/recorded`` when
    /// the payment is in the ledger, ``ClaimOutcome/failed(_:)`` when the session waited for was answered
    /// a failure. Throws ``TenderError/idempotencyConflict(_:)`` for the key used with other parameters,
    /// ``TenderError/outcomeUnknown(_:)`` when a session that held the key ended (a crash) without recording
    /// the host's answer (settle it with `tender status`), ``TenderError/storeBusy(_:)`` when the wait runs out.
    func claim(_ call: HostCall) throws(TenderError) -> ClaimOutcome
    /// Gives the claimed key back after the host answered `failure` (nothing moved): sessions waiting
    /// for it answer that code; a later claim may ask the host again.
    func release(_ token: String, failure: ResponseCode) throws(TenderError)
    /// Ends the caller's hold on `token` in memory, on every path after ``claim(_:)``: a claim still stored
    /// then (the host paid but the record could not be written) reads as an unknown outcome, never as in progress.
    func finish(_ token: String)
}
