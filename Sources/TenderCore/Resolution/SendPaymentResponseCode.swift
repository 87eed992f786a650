/// SiriKit's INSendPaymentIntentResponseCode, same order and numbers as the C enum.
public enum SendPaymentResponseCode: Int32, Sendable, CaseIterable {
    case unspecified = 0
    case ready
    case inProgress
    case success
    case failure
    case failureRequiringAppLaunch
    case failureCredentialsUnverified
    case failurePaymentsAmountBelowMinimum
    case failurePaymentsAmountAboveMaximum
    case failurePaymentsCurrencyUnsupported
    case failureInsufficientFunds
    case failureNoBankAccount
    case failureNotEligible
    case failureTermsAndConditionsAcceptanceRequired

    /// The SiriKit name, e.g. "failureInsufficientFunds".
    public var name: String { String(describing: self) }
}
