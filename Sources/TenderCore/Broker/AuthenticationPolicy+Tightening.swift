// SPDX-License-Identifier: Apache-2.0
extension AuthenticationPolicy {
    /// The policy that restricts whatever this one (root's, in the daemon) or
    /// `client` restricts, and reuses and throttles no more loosely than
    /// either: a client can add restrictions, never remove one. The PAM
    /// service, its directory and testing mode stay this policy's.
    public func tightened(by client: AuthenticationPolicy) -> AuthenticationPolicy {
        var merged = self
        merged.restrictedIntents.formUnion(client.restrictedIntents)
        merged.restrictsCustomMoneyMovement = restrictsCustomMoneyMovement || client.restrictsCustomMoneyMovement
        merged.newPayee = newPayee || client.newPayee
        merged.newDevice = newDevice || client.newDevice
        merged.reuseSeconds = min(reuseSeconds, client.reuseSeconds)
        merged.reuseCount = min(reuseCount, client.reuseCount)
        // aboveAmount fails closed on a currency it does not list: with both rules set, a currency
        // listed by only one is unlisted by the other, so it stays unlisted (restricted) here.
        if aboveAmount.isEmpty {
            merged.aboveAmount = client.aboveAmount
        } else if !client.aboveAmount.isEmpty {
            var both: [String: Money] = [:]
            for (code, limit) in aboveAmount {
                if let other = client.aboveAmount[code] { both[code] = other < limit ? other : limit }
            }
            // No currency in both: every amount is restricted; one zero limit says so (any other currency is unlisted).
            if both.isEmpty, let some = aboveAmount.values.first { both[some.currency.code] = .zero(some.currency) }
            merged.aboveAmount = both
        }
        merged.throttle = ThrottlePolicy(
            freeAttempts: min(throttle.freeAttempts, client.throttle.freeAttempts),
            baseDelaySeconds: max(throttle.baseDelaySeconds, client.throttle.baseDelaySeconds),
            maxDelaySeconds: max(throttle.maxDelaySeconds, client.throttle.maxDelaySeconds))
        return merged
    }
}
