// SPDX-License-Identifier: Apache-2.0
/// One successful authentication that may be reused, like LocalAuthentication's
/// reuse duration or sudo's timestamp: for the same user, intent, payee and
/// device, until `expires` (counted from the authentication, not sliding).
/// It is a budget: the payments it covers after the authenticated one spend
/// its amount and its count, so together they never exceed the amount the
/// person authenticated, nor the configured number of payments. Not thread-safe; the gate guards its list.
struct AuthenticationGrant: Sendable {
    let user: String
    let intent: String
    let payeeID: String
    let device: String?
    /// What is left of the authenticated amount; nil for an intent without an amount (a search).
    private(set) var remaining: Money?
    /// How many more payments it may cover (the policy's `reuseCount` at first).
    private(set) var remainingCount: Int
    /// When it expires, in the clock's monotonic milliseconds.
    let expires: Int64

    init(user: String, intent: String, payeeID: String, device: String?, amount: Money?, count: Int, expires: Int64) {
        self.user = user
        self.intent = intent
        self.payeeID = payeeID
        self.device = device
        remaining = amount
        remainingCount = count
        self.expires = expires
    }

    /// Whether the grant covers a payment of `amount` now.
    func permits(user: String, intent: String, payeeID: String, device: String?, amount: Money?, at now: Int64) -> Bool {
        let covered: Bool
        switch (amount, remaining) {
        case (nil, nil): covered = true
        case let (amount?, remaining?): covered = amount.currency == remaining.currency && amount.minorUnits <= remaining.minorUnits
        default: covered = false
        }
        return self.user == user && self.intent == intent && self.payeeID == payeeID && self.device == device && covered
            && remainingCount > 0 && now < expires
    }

    /// Spends `amount` and one payment of the budget; call only after ``permits``.
    mutating func spend(_ amount: Money?) {
        remainingCount -= 1
        if let amount, let left = remaining { remaining = try? Money(minorUnits: left.minorUnits - amount.minorUnits, currency: left.currency) }
    }

    /// What is left, for the audit: "USD 200.00 and 2 payment(s)".
    var budgetText: String { Self.budgetText(remaining: remaining, count: remainingCount) }

    /// What is left of a budget of `remaining` over `count` payments, for the audit.
    static func budgetText(remaining: Money?, count: Int) -> String {
        let money = remaining.map { "\($0.currency.code) \($0.decimalString)" } ?? "no amount"
        return "\(money) and \(count) payment(s)"
    }
}
