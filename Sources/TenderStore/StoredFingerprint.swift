// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A payment's fingerprint as its ledger row keeps it. Since schema 7 the
/// row keeps the SHA-256 digest of the canonical text (a BLOB; the text
/// itself is in the signed payload's `"ledger"` member), so the row stays
/// small; rows written before keep the text (TEXT). The storage class tells
/// the two apart.
enum StoredFingerprint: Equatable, Sendable {
    case text(String)
    case digest([UInt8])

    /// The fingerprint in `column` of the current row of `row`, or nil when NULL.
    init?(_ row: any StoreStatement, column: Int32) {
        if row.isBlob(column) {
            self = .digest(row.blob(column))
        } else if let text = row.text(column) {
            self = .text(text)
        } else {
            return nil
        }
    }

    /// What a new row stores for `fingerprint`: its SHA-256 digest.
    static func digest(of fingerprint: String, crypto: any LedgerCrypto) throws(TenderError) -> [UInt8] {
        try crypto.sha256(Array(fingerprint.utf8))
    }

    /// Whether this is what a row keeps for `fingerprint`.
    func matches(_ fingerprint: String, crypto: any LedgerCrypto) throws(TenderError) -> Bool {
        switch self {
        case let .text(text): return text == fingerprint
        case let .digest(digest): return try Self.digest(of: fingerprint, crypto: crypto) == digest
        }
    }
}
