// SPDX-License-Identifier: Apache-2.0
/// What an audit entry records about one payment that reached the
/// authentication gate (tender_engine_audit() lists them; docs/audit.md).
/// The raw values are the `"event"` strings of the audit document.
public enum AuditEvent: String, CaseIterable, Sendable {
    /// The person authenticated through PAM; the detail names the rule, the service and the reuse budget opened.
    case authenticated
    /// A grant of the reuse window covered the payment; the detail gives the budget left.
    case reused
    /// The policy does not restrict this payment, so nobody was asked.
    case notRequired
    /// Authentication failed or could not be asked; the detail starts with the denial's reason.
    case denied
    /// Too many failures: refused without asking; the detail says when to retry.
    case throttled
}
