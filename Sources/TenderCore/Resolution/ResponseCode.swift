// SPDX-License-Identifier: Apache-2.0
/// The outcome of confirm and handle for every intent: SiriKit's response code
/// names. 0 to 13 are INSendPaymentIntentResponseCode's numbers; the codes
/// only other intents have follow. Same numbers as the C enum.
public enum ResponseCode: Int32, Sendable, CaseIterable {
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
    /// search_for_bills (and pay_bill): no bill matches.
    case failureBillNotFound
    /// search_for_accounts: no account matches.
    case failureAccountNotFound
    /// search_for_payments: no payment matches.
    case failurePaymentNotFound

    /// The SiriKit name, e.g. "failureInsufficientFunds".
    public var name: String { Self.names[Int(rawValue)] }

    /// Every case's name, by raw value (reflection made once, not on every answer).
    private static let names: [String] = allCases.map { String(describing: $0) }

    private static let common: [ResponseCode] = [.unspecified, .ready, .inProgress, .success, .failure, .failureRequiringAppLaunch, .failureCredentialsUnverified]

    /// The codes `intent` may answer, as SiriKit defines them for it.
    public static func codes(of intent: IntentSchema) -> [ResponseCode] {
        if intent.custom != nil {
            return common + [.failurePaymentsAmountBelowMinimum, .failurePaymentsAmountAboveMaximum, .failurePaymentsCurrencyUnsupported]
        }
        switch intent.name {
        case IntentSchema.sendPayment.name: return allCases.filter { $0.rawValue <= 13 }
        case IntentSchema.requestPayment.name:
            return common + [
                .failurePaymentsAmountBelowMinimum, .failurePaymentsAmountAboveMaximum, .failurePaymentsCurrencyUnsupported, .failureNoBankAccount,
                .failureNotEligible, .failureTermsAndConditionsAcceptanceRequired,
            ]
        case IntentSchema.payBill.name, IntentSchema.transferMoney.name: return common + [.failureInsufficientFunds]
        case IntentSchema.searchForBills.name: return common + [.failureBillNotFound]
        case IntentSchema.searchForAccounts.name: return common + [.failureAccountNotFound, .failureNotEligible, .failureTermsAndConditionsAcceptanceRequired]
        default: return common + [.failurePaymentNotFound]
        }
    }

    /// The failure code `intent` answers at confirm for a parameter unsupported
    /// for `reason` (an amount below the minimum → failurePaymentsAmountBelowMinimum), or nil.
    public static func failure(for reason: String, of intent: IntentSchema) -> ResponseCode? {
        let code: ResponseCode
        switch UnsupportedReason(rawValue: reason) {
        case .paymentsAmountBelowMinimum: code = .failurePaymentsAmountBelowMinimum
        case .paymentsAmountAboveMaximum: code = .failurePaymentsAmountAboveMaximum
        case .paymentsCurrencyUnsupported: code = .failurePaymentsCurrencyUnsupported
        case .insufficientFunds: code = .failureInsufficientFunds
        case .credentialsUnverified: code = .failureCredentialsUnverified
        case .noAccount: code = codes(of: intent).contains(.failureNoBankAccount) ? .failureNoBankAccount : .failureCredentialsUnverified
        default: return nil
        }
        return codes(of: intent).contains(code) ? code : nil
    }
}
