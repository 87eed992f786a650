/// Why a payee cannot be paid: SiriKit's INSendPaymentPayeeUnsupportedReason,
/// plus `noMatchingContact` when no contact matches the name at all.
public enum PayeeUnsupportedReason: String, Sendable {
    case credentialsUnverified
    case insufficientFunds
    case noAccount
    case noValidHandle
    case noMatchingContact
}
