// SPDX-License-Identifier: Apache-2.0
internal import CPAM
import TenderCore

/// Maps a PAM result to a denial: every result other than success denies.
enum PAMResult {
    /// A cancel by the host denies even when an optional module let PAM succeed.
    static func denial(_ result: Int32, message: String, cancelled: Bool) -> AuthenticationDenial? {
        if cancelled { return .cancelled("the person cancelled the authentication") }
        switch result {
        case PAM_SUCCESS:
            return nil
        case PAM_AUTH_ERR, PAM_USER_UNKNOWN, PAM_CRED_INSUFFICIENT, PAM_MAXTRIES, PAM_CRED_ERR:
            return .wrongCredentials("PAM: \(message)")
        case PAM_ACCT_EXPIRED, PAM_NEW_AUTHTOK_REQD, PAM_PERM_DENIED, PAM_AUTHTOK_EXPIRED:
            return .accountUnavailable("PAM: \(message)")
        case PAM_CONV_ERR, PAM_ABORT:
            return .cancelled("PAM: \(message)")
        default:
            return .systemError("PAM: \(message)")
        }
    }
}
