/// One successful authentication that may be reused, like LocalAuthentication's
/// reuse duration or sudo's timestamp: for the same user, intent, payee and
/// device, up to the amount it was given for, until `expires` (counted from
/// the authentication, not sliding).
struct AuthenticationGrant: Sendable {
    let user: String
    let intent: String
    let payeeID: String
    let device: String?
    /// The largest amount it covers; nil for an intent without an amount (a search).
    let ceiling: Money?
    let expires: ContinuousClock.Instant

    func permits(user: String, intent: String, payeeID: String, device: String?, amount: Money?, at now: ContinuousClock.Instant) -> Bool {
        let covered: Bool
        switch (amount, ceiling) {
        case (nil, nil): covered = true
        case let (amount?, ceiling?): covered = amount.currency == ceiling.currency && amount.minorUnits <= ceiling.minorUnits
        default: covered = false
        }
        return self.user == user && self.intent == intent && self.payeeID == payeeID && self.device == device && covered && now < expires
    }
}
