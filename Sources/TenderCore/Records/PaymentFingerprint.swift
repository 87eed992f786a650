// SPDX-License-Identifier: Apache-2.0
/// A payment's canonical parameters: the compact JSON text that is equal exactly when two submissions
/// pay the same thing (the same idempotency key with other parameters is a conflict). A format-1
/// record keeps this text in `ledger.fingerprint`; a format-2 record keeps its SHA-256 instead
/// (``digest(ofCanonical:)``), and the text is rebuilt from the record's own members
/// (``canonicalText(ofRecord:)``), as docs/records.md tells an outside verifier to. Pure and thread-safe.
public enum PaymentFingerprint {
    /// The members of a payment record that are not its parameters.
    public static let recordMembers: Set<String> = [
        "type", RecordFormat.member, "sequence", "previousHash", "id", "intent", "status", "paymentMethod", "idempotencyKey", "ledger",
        "settled", "createdAt",
    ]

    /// What a format-2 record keeps in `ledger.fingerprint`: the unpadded base64url SHA-256 of the canonical text's UTF-8 bytes.
    public static func digest(ofCanonical text: String) -> String {
        Base64URL.encode(CanonicalSHA256.digest(Array(text.utf8)))
    }

    /// The canonical parameters of the payment a record keeps, rebuilt from its members, or nil when
    /// the record lacks one it needs. An object written compactly (``JSONWriter``), with `"intent"` first, then:
    /// - `pay_bill`: `"billPayee"` (the bill payee's id), `"bill"` (the id of `billDetailsWhenPaid`, or null),
    ///   `"currencyAmount"`, `"transactionScheduledDate"` and `"transactionNote"` (each null when absent),
    ///   `"account"` (the account's id, or "" without one);
    /// - another built-in intent: every other member of the record, in its order, but ``recordMembers``;
    /// - a custom intent: the same but `"response"` and `"account"`, then `"account"` (the account's id, or "").
    public static func canonicalText(ofRecord record: JSONValue) -> String? {
        guard let members = record.objectMembers, let intent = record["intent"]?.stringValue else { return nil }
        var canonical: [(key: String, value: JSONValue)] = [("intent", .string(intent))]
        let accountID = JSONValue.string(record["account"]?["id"]?.stringValue ?? "")
        if record["account"] != nil, record["account"]?["id"]?.stringValue == nil { return nil }
        if intent == IntentSchema.payBill.name {
            guard let payee = record["billPayee"]?["id"]?.stringValue, let amount = record["currencyAmount"] else { return nil }
            var bill = JSONValue.null
            if let details = record["billDetailsWhenPaid"] {
                guard let id = details["id"]?.stringValue else { return nil }
                bill = .string(id)
            }
            canonical += [
                ("billPayee", .string(payee)), ("bill", bill), ("currencyAmount", amount),
                ("transactionScheduledDate", record["transactionScheduledDate"] ?? .null), ("transactionNote", record["transactionNote"] ?? .null),
                ("account", accountID),
            ]
        } else if IntentSchema.named(intent) != nil {
            canonical += members.filter { !recordMembers.contains($0.key) }
        } else {
            canonical += members.filter { !recordMembers.contains($0.key) && $0.key != "response" && $0.key != "account" }
            canonical.append(("account", accountID))
        }
        return JSONWriter.string(.object(canonical))
    }
}
