// SPDX-License-Identifier: Apache-2.0
extension AuthenticationPolicy {
    /// The policy as one canonical text (every rule, sets and maps sorted), naming the reuse budgets it made in a shared
    /// ``ReuseGrants`` store: a budget is spent only under the very policy that made it, as a gate's own budgets are (one
    /// gate per policy). Two processes of the same build give the same text for equal policies. A rule added to the
    /// policy must be added here, or budgets made under one value of it would be spent under another.
    public var grantScope: String {
        let above = aboveAmount.keys.sorted().map { "\($0)=\(aboveAmount[$0]?.minorUnits ?? 0)" }.joined(separator: ",")
        return [
            "intents=" + restrictedIntents.sorted().joined(separator: ","), "custom=\(restrictsCustomMoneyMovement)", "above=" + above,
            "newPayee=\(newPayee)", "newDevice=\(newDevice)", "reuse=\(reuseSeconds)/\(reuseCount)", "service=" + service,
            "config=" + (configDirectory ?? "-"),
            "throttle=\(throttle.freeAttempts)/\(throttle.baseDelaySeconds)/\(throttle.maxDelaySeconds)", "testing=\(testing)",
        ].joined(separator: ";")
    }
}
