// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Decides and performs re-authentication before a payment is submitted:
/// applies the policy, honours the reuse window, enforces throttling, calls
/// the authenticator and audits the outcome. Thread-safe; one per engine.
public final class AuthenticationGate: Sendable {
    public let policy: AuthenticationPolicy
    private let authenticator: (any Authenticator)?
    private let records: (any AuthenticationRecords)?
    private let grants = Mutex<[AuthenticationGrant]>([])
    /// The user audit entries name when there is no authenticator.
    private let processUser: String
    /// What the reuse window's time is read from.
    private let clock: any TenderClock
    /// Where the reuse budgets are kept when several processes share them; nil: in ``grants``.
    private let shared: (any ReuseGrants)?

    /// A gate; without an authenticator, payments that need authentication are
    /// denied, and audit entries name `user`. The reuse window counts on `clock`, or, with `sharedGrants`, the
    /// budgets are kept there (shared with every process using it, on its clock); any failure of it fails closed: the
    /// payment is asked for again, and a budget it could not keep is not kept.
    public init(
        policy: AuthenticationPolicy, authenticator: (any Authenticator)?, records: (any AuthenticationRecords)?, user: String = "",
        clock: any TenderClock, sharedGrants: (any ReuseGrants)? = nil
    ) {
        self.policy = policy
        self.clock = clock
        shared = sharedGrants
        self.authenticator = authenticator
        self.records = records
        processUser = user
    }

    /// A gate that never asks: for engines whose policy restricts nothing.
    public static let open: AuthenticationGate = {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        policy.restrictsCustomMoneyMovement = false
        return AuthenticationGate(policy: policy, authenticator: nil, records: nil, clock: StoppedClock())
    }()

    /// Nil when the payment may go ahead; otherwise why it may not. Every
    /// call leaves one audit entry saying whether and how the payment was
    /// authenticated, or why it was not asked (`notRequired`: the policy does
    /// not restrict it; `reused`: the reuse budget covered it), prefixed
    /// "testing mode" when the engine runs with `"testing": true`.
    /// A custom intent's `restriction` (its definition's rules) is applied with the engine's; `customMovesMoney`
    /// says it is a custom intent of category `moneyMovement` (restricted unless the policy says otherwise).
    func check(
        intent: String, amount: Money?, payeeID: String, device: String?, restriction: CustomIntentRestriction? = nil,
        customMovesMoney: Bool = false, conversation: (any Conversation)?
    ) throws(TenderError) -> AuthenticationDenial? {
        guard let records else {
            let restricted = policy.restricts(intent: intent, customMovesMoney: customMovesMoney) || (restriction.map { $0 != .never } ?? false)
            return restricted ? .systemError("no authentication is configured") : nil
        }
        let mode = policy.testing ? "testing mode (PAM service \(policy.service)\(policy.configDirectory.map { " in \($0)" } ?? "")): " : ""
        let user = authenticator?.user ?? processUser
        func audit(_ event: AuditEvent, _ detail: String) throws(TenderError) {
            try records.audit(user: user, event: event, intent: intent, detail: mode + detail)
        }
        guard let reason = try policy.requirement(
            intent: intent, amount: amount, payeeID: payeeID, device: device, restriction: restriction, customMovesMoney: customMovesMoney,
            records: records) else {
            try audit(.notRequired, "policy unrestricted: no rule restricts this payment")
            return nil
        }
        guard let authenticator else {
            try audit(.denied, "systemError: no authenticator is configured")
            return .systemError("no authenticator is configured")
        }
        let now = clock.monotonicMilliseconds()
        let reused: String?
        if let shared {
            // Any doubt (the store failing) spends nothing and asks.
            let left = policy.reuseSeconds > 0
                ? (try? shared.spendGrant(
                    scope: policy.grantScope, user: user, intent: intent, payeeID: payeeID, device: device, amount: amount)) ?? nil : nil
            reused = left.map { AuthenticationGrant.budgetText(remaining: $0.remaining, count: $0.count) }
        } else {
            reused = grants.withLock { (list) -> String? in
                guard let index = list.firstIndex(where: { $0.permits(user: user, intent: intent, payeeID: payeeID, device: device, amount: amount, at: now) })
                else { return nil }
                list[index].spend(amount)
                return list[index].budgetText
            }
        }
        if let reused {
            try audit(.reused, "\(reason): reuse window budget left \(reused)")
            return nil
        }
        let wait = try records.reserveAttempt(user: user, throttle: policy.throttle)
        if wait > 0 {
            try audit(.throttled, "retry in \(wait) s")
            return .throttled(retryAfterSeconds: wait)
        }
        guard let conversation else {
            try records.settleAttempt(user: user, outcome: .notCounted, throttle: policy.throttle)
            try audit(.denied, "cancelled: the host set no conversation")
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
            try audit(.denied, "\(denial.name): \(denial.message)")
            return denial
        }
        var detail = "\(reason): PAM service \(policy.service)"
        if policy.reuseSeconds > 0 {
            // A budget for the payments that follow: the amount authenticated, over at most reuseCount payments.
            let grant = AuthenticationGrant(
                user: user, intent: intent, payeeID: payeeID, device: device, amount: amount, count: policy.reuseCount,
                expires: now + Int64(policy.reuseSeconds) * 1000)
            detail += "; reuse budget \(amount.map { "\($0.currency.code) \($0.decimalString)" } ?? "no amount") over at most \(policy.reuseCount) more payment(s) within \(policy.reuseSeconds) s"
            if let shared {
                // Not kept (the store failing): the next payment asks again.
                try? shared.recordGrant(
                    scope: policy.grantScope, user: user, intent: intent, payeeID: payeeID, device: device, amount: amount,
                    count: policy.reuseCount, seconds: policy.reuseSeconds)
            } else {
                grants.withLock { list in
                    list.removeAll { $0.expires <= now }
                    list.append(grant)
                }
            }
        }
        try audit(.authenticated, detail)
        if let device { _ = try records.isKnownDevice(device, remember: true) }
        return nil
    }
}
