// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Exactly once beyond the store: a claim row per idempotency key, committed (durably) before the host is
/// asked to move money, removed in the same transaction as the payment's record. Sessions of this process
/// and of others that find the key claimed wait for the first one's outcome; a claim whose holder ended
/// (a crash between the claim and the record) is an unknown outcome that only `tender status` settles.
extension SQLiteStore: HostCallClaims {
    /// The longest a session waits for another session's host call under the same key.
    static let claimWaitMilliseconds: Int64 = 30_000

    /// The claims this process holds now (their tokens), with the thread asking the host under each.
    private static let held = PthreadLocked<[String: pthread_t]>([:])

    /// How a key stands, read inside a transaction.
    private enum ClaimState {
        case free
        case recorded
        case failed(token: String, code: ResponseCode)
        case inFlight(token: String)
        /// Held by the calling thread: handle called back from inside the host's callback.
        case reentered
        case unknown
    }

    public func claim(_ call: HostCall) throws(TenderError) -> ClaimOutcome {
        let deadline = Self.monotonicMilliseconds() + Self.claimWaitMilliseconds
        var waitedFor: String?
        var pause: UInt32 = 200
        while true {
            let seen = try read { (db) throws(TenderError) in try state(of: call, db) }
            switch seen {
            case .recorded: return .recorded
            case .reentered: throw Self.reentered(call.idempotencyKey)
            case let .failed(token, code) where token == waitedFor: return .failed(code)
            case let .inFlight(token):
                waitedFor = token
                guard Self.monotonicMilliseconds() < deadline else {
                    throw .storeBusy(
                        "another session has asked the host to pay under the idempotency key \(call.idempotencyKey) for "
                            + "\(Self.claimWaitMilliseconds / 1000) s and has no answer yet; try again later")
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            case .free, .failed, .unknown:
                // An unknown outcome seen in a snapshot may be a holder that committed its payment and let go of its
                // claim since (its token is no longer held, the snapshot still shows the claim): take() looks again
                // under the write lock, where the two agree, and throws unknown only if it still is.
                if let outcome = try take(call, waitedFor: &waitedFor) { return outcome }
            }
        }
    }

    /// Claims the key in a durable write transaction when it is still free (or its last claim failed),
    /// else answers what the key holds; nil when another session holds it now (the caller waits).
    private func take(_ call: HostCall, waitedFor: inout String?) throws(TenderError) -> ClaimOutcome? {
        let token = Self.newToken()
        let owner = ClaimOwner.current()
        let known = waitedFor
        Self.held.withLock { $0[token] = pthread_self() }
        let decided: (outcome: ClaimOutcome?, waiting: String?)
        do throws(TenderError) {
            decided = try write { (db) throws(TenderError) -> (outcome: ClaimOutcome?, waiting: String?) in
                switch try state(of: call, db) {
                case .recorded: return (.recorded, nil)
                case .unknown: throw Self.unknown(call.idempotencyKey)
                case .reentered: throw Self.reentered(call.idempotencyKey)
                case let .failed(previous, code) where previous == known: return (.failed(code), nil)
                case let .inFlight(other): return (nil, other)
                case .free, .failed:
                    let body = String(decoding: call.body, as: UTF8.self)
                    let seal = try sealClaim(call.idempotencyKey, fingerprint: call.fingerprint, body: body, token: token, signer: activeSigner(db))
                    try db.statement(
                        """
                        INSERT INTO claims (idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms, seal_kid, seal)
                        VALUES (?, ?, ?, 'calling', NULL, ?, ?, ?, ?, ?)
                        ON CONFLICT (idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint, body = excluded.body,
                            state = 'calling', code = NULL, token = excluded.token, owner = excluded.owner, claimed_at_ms = excluded.claimed_at_ms,
                            seal_kid = excluded.seal_kid, seal = excluded.seal
                        """,
                        [call.idempotencyKey, call.fingerprint, body, token, owner, clock.nowMilliseconds(), seal.keyID, seal.seal]
                    ).run()
                    return (.claimed(token), nil)
                }
            }
        } catch {
            Self.held.withLock { $0[token] = nil }
            throw error
        }
        if case .claimed = decided.outcome { return decided.outcome }
        Self.held.withLock { $0[token] = nil }
        if let waiting = decided.waiting { waitedFor = waiting }
        return decided.outcome
    }

    public func release(_ token: String, failure: ResponseCode) throws(TenderError) {
        // Not flushed: lost in a power cut, the claim reads as an unknown outcome, which asks the host nothing.
        try write(lazy: true) { (db) throws(TenderError) in
            try db.statement("UPDATE claims SET state = 'failed', code = ? WHERE token = ? AND state = 'calling'", [Int64(failure.rawValue), token])
                .run()
        }
    }

    public func finish(_ token: String) {
        Self.held.withLock { $0[token] = nil }
    }

    /// The key's state: its payment in the ledger (conflict when with other parameters), else its claim.
    private func state(of call: HostCall, _ db: any StoreDatabase) throws(TenderError) -> ClaimState {
        let paid = try db.statement("SELECT fingerprint FROM ledger WHERE idempotency_key = ? AND type = 'payment'", [call.idempotencyKey])
        if try paid.step() {
            let stored = StoredFingerprint(paid, column: 0)
            _ = try paid.step()
            guard let stored, try stored.matches(call.fingerprint, crypto: crypto) else { throw Self.claimConflict }
            return .recorded
        }
        guard let claim = try storedClaim(call.idempotencyKey, db) else { return .free }
        guard claim.fingerprint == call.fingerprint else { throw Self.claimConflict }
        if claim.state == "failed" { return .failed(token: claim.token, code: claim.code) }
        if claim.owner == ClaimOwner.current(), let thread = Self.held.withLock({ $0[claim.token] }), pthread_equal(thread, pthread_self()) != 0 {
            return .reentered
        }
        return Self.isHeld(claim) ? .inFlight(token: claim.token) : .unknown
    }

    /// A stored claim.
    struct StoredClaim {
        let fingerprint: String
        let body: String
        let state: String
        let code: ResponseCode
        let token: String
        let owner: String
        /// The kid of the key that sealed it, and the seal (base64url); nil in a claim written without one.
        let sealKeyID: String?
        let seal: String?
    }

    /// The claim on `key`, inside the caller's transaction.
    func storedClaim(_ key: String, _ db: any StoreDatabase) throws(TenderError) -> StoredClaim? {
        let row = try db.statement("SELECT fingerprint, body, state, code, token, owner, seal_kid, seal FROM claims WHERE idempotency_key = ?", [key])
        guard try row.step() else { return nil }
        let claim = StoredClaim(
            fingerprint: row.text(0) ?? "", body: row.text(1) ?? "", state: row.text(2) ?? "",
            code: ResponseCode(rawValue: Int32(truncatingIfNeeded: row.int64(3))) ?? .failure, token: row.text(4) ?? "", owner: row.text(5) ?? "",
            sealKeyID: row.text(6), seal: row.text(7))
        _ = try row.step()
        return claim
    }

    /// Whether a session is asking the host under `claim` now: one of this process's, or another process that still runs.
    static func isHeld(_ claim: StoredClaim) -> Bool {
        claim.owner == ClaimOwner.current() ? held.withLock { $0[claim.token] != nil } : ClaimOwner.isRunning(claim.owner)
    }

    private static let claimConflict = TenderError.idempotencyConflict("this idempotency key already paid, or asked the host to pay, with other parameters")

    static func unknown(_ key: String) -> TenderError {
        .outcomeUnknown(
            "the host was asked to pay under the idempotency key \(key) and its answer was never recorded (the session asking it ended); "
                + "Tender does not ask again: look the payment up in the host's payment system, then settle it with "
                + "`tender status \(key) completed` (it paid) or `failed` (it did not)")
    }

    /// Handle called back from inside the host's callback under the key the calling thread holds: it would wait for itself.
    static func reentered(_ key: String) -> TenderError {
        .wrongState(
            "handle was called from inside the host's callback that is paying under the idempotency key \(key); "
                + "the host is asked once per key, so this call asks nothing (callbacks must not call back into the engine)")
    }

    private static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        return words.map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
