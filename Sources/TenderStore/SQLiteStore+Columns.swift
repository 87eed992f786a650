// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The columns the store keeps beside each ledger entry's JWS and reads back
/// (exactly-once, status changes, the most recent payee) are not signed by
/// themselves: verify checks each one against the entry's signed payload.
extension SQLiteStore {
    /// One stored ledger row, every checked column as text (nil for NULL), in ``checkedColumns``' order,
    /// but a fingerprint kept as its digest (``StoredFingerprint``), which is in `digest` instead.
    private struct StoredRow {
        let sequence: Int64
        let values: [String?]
        let digest: [UInt8]?
    }

    /// The columns checked, in the order of the SELECT below (after sequence).
    private static let checkedColumns = [
        "type", "hash", "idempotency_key", "fingerprint", "account_id", "payee_contact_id", "payee_handle_id", "currency", "amount_minor",
        "effects", "subject", "status",
    ]

    /// Throws ``TenderError/ledgerTampered(_:)`` naming the first entry with a
    /// column that disagrees with its signed payload. `payloads` and `hashes`:
    /// the first entries' signed payloads, parsed, and hashes, as
    /// ``LedgerVerifier`` left them after verifying their signatures and links;
    /// every one of these rows is checked (an entry appended since was not verified and is not).
    func verifyColumns(payloads: [JSONValue], hashes: [String]) throws(TenderError) {
        let count = Int64(payloads.count)
        let rows = try read(scan: true) { (db) throws(TenderError) -> [StoredRow] in
            try db.statement(
                "SELECT sequence, \(Self.checkedColumns.joined(separator: ", ")) FROM ledger WHERE sequence <= ? ORDER BY sequence", [count]
            ).rows { row in
                var values: [String?] = []
                var digest: [UInt8]?
                values.reserveCapacity(Self.checkedColumns.count)
                for (index, name) in Self.checkedColumns.enumerated() {
                    let column = Int32(index + 1)
                    if name == "fingerprint", case let .digest(bytes)? = StoredFingerprint(row, column: column) {
                        digest = bytes
                        values.append(nil)
                        continue
                    }
                    values.append(row.isNull(column) ? nil : name == "amount_minor" || name == "subject" ? String(row.int64(column)) : row.text(column))
                }
                return StoredRow(sequence: row.int64(0), values: values, digest: digest)
            }
        }
        guard rows.count == payloads.count else {
            throw .ledgerTampered("the ledger held \(payloads.count) records when verified but \(rows.count) when its columns were read")
        }
        for (index, row) in rows.enumerated() {
            guard row.sequence == Int64(index) + 1 else {
                throw .ledgerTampered("record \(index + 1): stored at position \(row.sequence) when its columns were read")
            }
            var expected = try expectedColumns(payloads[index], hash: hashes[index])
            if let digest = row.digest {
                // A payment row since schema 7: the digest of the signed fingerprint, and no effects beside the signed ones.
                // A format-2 record signs that digest itself (base64url); a format-1 record signs the text it digests.
                let formatTwo = payloads[index][RecordFormat.member] != nil
                guard payloads[index]["type"]?.stringValue == "payment", let fingerprint = expected["fingerprint"] ?? nil,
                    formatTwo ? Base64URL.decode(fingerprint) == digest : try StoredFingerprint.digest(digest).matches(fingerprint, crypto: crypto)
                else {
                    throw .ledgerTampered("record \(row.sequence): the stored column fingerprint disagrees with its signed payload")
                }
                expected["fingerprint"] = nil
                expected["effects"] = .some(nil)
            } else if payloads[index][RecordFormat.member] != nil {
                // Every format-2 row keeps its fingerprint as the digest.
                throw .ledgerTampered("record \(row.sequence): the stored column fingerprint disagrees with its signed payload")
            }
            for (column, name) in Self.checkedColumns.enumerated() {
                guard let want = expected[name] else { continue }  // not derivable from this payload (a record written before v0.1 columns)
                guard row.values[column] == want else {
                    throw .ledgerTampered("record \(row.sequence): the stored column \(name) disagrees with its signed payload")
                }
            }
        }
    }

    /// What each column must hold for an entry with this payload; a column
    /// missing from the answer cannot be checked (a payment recorded before
    /// records carried their `"ledger"` member: only its key is).
    private func expectedColumns(_ payload: JSONValue, hash: String) throws(TenderError) -> [String: String?] {
        let type = payload["type"]?.stringValue
        var expected: [String: String?] = ["type": type, "hash": hash]
        let paymentColumns = [
            "idempotency_key", "fingerprint", "account_id", "payee_contact_id", "payee_handle_id", "currency", "amount_minor", "effects",
        ]
        switch type {
        case "payment":
            expected["idempotency_key"] = payload["idempotencyKey"]?.stringValue
            expected["subject"] = .some(nil)
            expected["status"] = .some(nil)
            guard let ledger = payload["ledger"] else { break }
            func text(_ value: JSONValue?) -> String? {
                switch value {
                case let .string(value)?: return value
                case let .number(value)?: return value
                default: return nil
                }
            }
            func text(_ key: String) -> String? { text(ledger[key]) }
            if payload[RecordFormat.member] != nil {
                // Format 2 writes each value once: the key, the account debited and the payee are the record's own.
                expected["account_id"] = text(ledger["effects"]?["movements"]?.arrayValue?.first?["account"])
                let payee = RecordFormat.recentPayee(ofFormatTwo: payload)
                // .some: a row without a payee must keep NULL (a bare optional chain would leave the column unchecked).
                expected["payee_contact_id"] = .some(payee?.contactID)
                expected["payee_handle_id"] = .some(payee?.handleID)
            } else {
                expected["idempotency_key"] = text("idempotencyKey")
                expected["account_id"] = text("account")
                expected["payee_contact_id"] = text("payeeContact")
                expected["payee_handle_id"] = text("payeeHandle")
            }
            expected["fingerprint"] = text("fingerprint")
            expected["currency"] = text("currency")
            expected["amount_minor"] = text("amountMinor")
            expected["effects"] = ledger["effects"].map { JSONWriter.string($0) }
        case PaymentStatusChange.entryType:
            for name in paymentColumns { expected[name] = .some(nil) }
            if case let .number(subject)? = payload["payment"] { expected["subject"] = subject }
            expected["status"] = payload["status"]?.stringValue
        default:
            for name in paymentColumns + ["subject", "status"] { expected[name] = .some(nil) }
        }
        return expected
    }
}
