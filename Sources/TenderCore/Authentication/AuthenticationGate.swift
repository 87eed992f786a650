import Synchronization

/// Decides and performs re-authentication before a payment is submitted:
/// applies the policy, honours the reuse window, enforces throttling, calls
/// the authenticator and audits the outcome. Thread-safe; one per engine.
public final class AuthenticationGate: Sendable {
    public let policy: AuthenticationPolicy
    private let authenticator: (any Authenticator)?
    private let records: (any AuthenticationRecords)?
    private let grants = Mutex<[AuthenticationGrant]>([])

    /// A gate; without an authenticator, payments that need authentication are denied.
    public init(policy: AuthenticationPolicy, authenticator: (any Authenticator)?, records: (any AuthenticationRecords)?) {
        self.policy = policy
        self.authenticator = authenticator
        self.records = records
    }

    /// A gate that never asks: for engines whose policy restricts nothing.
    public static let open: AuthenticationGate = {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        return AuthenticationGate(policy: policy, authenticator: nil, records: nil)
    }()

    /// Nil when the payment may go ahead; otherwise why it may not.
    func check(
        intent: String, amount: Money?, payeeID: String, device: String?, conversation: (any Conversation)?
    ) throws(TenderError) -> AuthenticationDenial? {
        guard let records else { return policy.restrictedIntents.contains(intent) ? .systemError("no authentication is configured") : nil }
        guard let reason = try policy.requirement(intent: intent, amount: amount, payeeID: payeeID, device: device, records: records) else {
            return nil
        }
        guard let authenticator else { return .systemError("no authenticator is configured") }
        let user = authenticator.user
        let now = ContinuousClock.now
        if grants.withLock({ $0.contains { $0.permits(user: user, intent: intent, payeeID: payeeID, device: device, amount: amount, at: now) } }) {
            try records.audit(user: user, event: "reused", intent: intent, detail: reason)
            return nil
        }
        let wait = try records.reserveAttempt(user: user, throttle: policy.throttle)
        if wait > 0 {
            try records.audit(user: user, event: "throttled", intent: intent, detail: "retry in \(wait) s")
            return .throttled(retryAfterSeconds: wait)
        }
        guard let conversation else {
            try records.settleAttempt(user: user, outcome: .notCounted, throttle: policy.throttle)
            try records.audit(user: user, event: "denied", intent: intent, detail: "cancelled: the host set no conversation")
            return .cancelled("authentication is required and the host set no conversation to ask the person")
        }
        let denial = authenticator.authenticate(through: conversation)
        // Wrong credentials count toward throttling; a cancel or a broken PAM stack does not.
        let outcome: AttemptOutcome
        switch denial {
        case nil: outcome = .succeeded
        case .wrongCredentials?, .accountUnavailable?: outcome = .failed
        default: outcome = .notCounted
        }
        try records.settleAttempt(user: user, outcome: outcome, throttle: policy.throttle)
        if let denial {
            try records.audit(user: user, event: "denied", intent: intent, detail: "\(denial.name): \(denial.message)")
            return denial
        }
        try records.audit(user: user, event: "authenticated", intent: intent, detail: reason)
        if let device { _ = try records.isKnownDevice(device, remember: true) }
        if policy.reuseSeconds > 0 {
            let grant = AuthenticationGrant(
                user: user, intent: intent, payeeID: payeeID, device: device, ceiling: amount, expires: now.advanced(by: .seconds(policy.reuseSeconds)))
            grants.withLock { list in
                list.removeAll { $0.expires <= now }
                list.append(grant)
            }
        }
        return nil
    }
}
