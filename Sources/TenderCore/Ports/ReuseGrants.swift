// SPDX-License-Identifier: Apache-2.0
/// Where an ``AuthenticationGate`` keeps its reuse budgets when they must be shared by several processes (tenderd on
/// several machines, one PostgreSQL store, docs/scale.md): a successful authentication leaves a budget (its amount, a
/// number of payments, a window), and a later payment spends from it instead of asking again. Without one, the gate
/// keeps them in its own memory. Implementations spend atomically across processes and read the window's time from
/// one clock shared by all of them. Thread-safe.
public protocol ReuseGrants: Sendable {
    /// Spends one payment of `amount` (nil: an intent without one) from the oldest live budget of `scope` (the policy,
    /// ``AuthenticationPolicy/grantScope``) for this user, intent, payee and device that covers it, and answers what is
    /// left of it (amount, payments); nil when no budget covers the payment.
    func spendGrant(
        scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?
    ) throws(TenderError) -> (remaining: Money?, count: Int)?
    /// Keeps a budget of `amount` over `count` later payments for `seconds` from now.
    func recordGrant(
        scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?, count: Int, seconds: Int64
    ) throws(TenderError)
}
