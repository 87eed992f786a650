// SPDX-License-Identifier: Apache-2.0
/// Why a parameter's value cannot be used: SiriKit's unsupported reasons
/// (INSendPaymentPayeeUnsupportedReason, ...CurrencyAmountUnsupportedReason,
/// INRequestPaymentPayerUnsupportedReason), plus Tender's for the parameters
/// SiriKit gives none: no matching contact, bill payee or account, an
/// unknown enum phrase, a bill amount the bill does not state.
public enum UnsupportedReason: String, Sendable, CaseIterable {
    case credentialsUnverified
    case insufficientFunds
    case noAccount
    case noValidHandle
    case noMatchingContact
    case paymentsAmountBelowMinimum
    case paymentsAmountAboveMaximum
    case paymentsCurrencyUnsupported
    case noMatchingBillPayee
    case noMatchingAccount
    case sameAccount
    case amountTypeNotStated
    case unknownValue
    case pastDate
}
