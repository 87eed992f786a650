// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
internal import Glibc
import CTender
import TenderCore

@c @implementation
public func tender_result_str(_ result: tender_result) -> UnsafePointer<CChar>? {
    UnsafeRawPointer(ResultCode.name(result).utf8Start).assumingMemoryBound(to: CChar.self)
}

@c @implementation
public func tender_last_error() -> UnsafePointer<CChar>? {
    LastError.current
}

@c @implementation
public func tender_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}

@c @implementation
public func tender_response_code_str(_ code: tender_response_code) -> UnsafePointer<CChar>? {
    UnsafeRawPointer(ResponseCodeNames.name(code).utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Static SiriKit names of the response codes, for tender_response_code_str().
enum ResponseCodeNames {
    static func name(_ code: tender_response_code) -> StaticString {
        switch ResponseCode(rawValue: code) {
        case .unspecified: return "unspecified"
        case .ready: return "ready"
        case .inProgress: return "inProgress"
        case .success: return "success"
        case .failure: return "failure"
        case .failureRequiringAppLaunch: return "failureRequiringAppLaunch"
        case .failureCredentialsUnverified: return "failureCredentialsUnverified"
        case .failurePaymentsAmountBelowMinimum: return "failurePaymentsAmountBelowMinimum"
        case .failurePaymentsAmountAboveMaximum: return "failurePaymentsAmountAboveMaximum"
        case .failurePaymentsCurrencyUnsupported: return "failurePaymentsCurrencyUnsupported"
        case .failureInsufficientFunds: return "failureInsufficientFunds"
        case .failureNoBankAccount: return "failureNoBankAccount"
        case .failureNotEligible: return "failureNotEligible"
        case .failureTermsAndConditionsAcceptanceRequired: return "failureTermsAndConditionsAcceptanceRequired"
        case .failureBillNotFound: return "failureBillNotFound"
        case .failureAccountNotFound: return "failureAccountNotFound"
        case .failurePaymentNotFound: return "failurePaymentNotFound"
        case nil: return "unknown"
        }
    }
}
