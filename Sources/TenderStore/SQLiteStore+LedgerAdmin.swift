// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The embedded store administers its own ledger (the other requirements are
/// implemented beside the ledger, the keys and the audit).
extension SQLiteStore: LedgerAdmin {
    /// ``verify(checkpoint:trustedKeys:progress:)`` without a progress report.
    public func verify(checkpoint: String?, trustedKeys: [String: [UInt8]]?) throws(TenderError) -> LedgerVerifier.Report {
        try verify(checkpoint: checkpoint, trustedKeys: trustedKeys, progress: nil)
    }
}
