/// Why an amount cannot be paid: SiriKit's INSendPaymentCurrencyAmountUnsupportedReason.
public enum CurrencyAmountUnsupportedReason: String, Sendable {
    case paymentsAmountBelowMinimum
    case paymentsAmountAboveMaximum
    case paymentsCurrencyUnsupported
}
