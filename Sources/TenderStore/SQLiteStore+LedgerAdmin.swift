// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The embedded store administers its own ledger (every requirement is
/// implemented beside the ledger, the keys and the audit).
extension SQLiteStore: LedgerAdmin {}
