// SPDX-License-Identifier: Apache-2.0
/// The wire forms of the values engine calls answer through the broker, and
/// their strict readers. Every reader refuses unknown members and wrong types
/// (``TenderError/invalidArgument(_:)``), as every other input is refused.
public enum BrokerWire {
    /// `{"sequence", "jws"}`.
    public static func json(_ entry: LedgerEntry) -> JSONValue {
        .object([("sequence", .number(String(entry.sequence))), ("jws", .string(entry.jws))])
    }

    public static func ledgerEntry(_ json: JSONValue) throws(TenderError) -> LedgerEntry {
        let reader = try ObjectReader(json, name: "entry", allowed: ["sequence", "jws"])
        return LedgerEntry(sequence: try required(reader, "sequence"), jws: try reader.requiredString("jws", maxLength: JSONInput.maxBytes))
    }

    /// `{"json", "jws", "sequence", "idempotencyKey"}`.
    public static func json(_ record: PaymentRecord) -> JSONValue {
        .object([
            ("json", .string(record.json)), ("jws", .string(record.jws)), ("sequence", .number(String(record.sequence))),
            ("idempotencyKey", .string(record.idempotencyKey)),
        ])
    }

    public static func record(_ json: JSONValue) throws(TenderError) -> PaymentRecord {
        let reader = try ObjectReader(json, name: "record", allowed: ["json", "jws", "sequence", "idempotencyKey"])
        return PaymentRecord(
            json: try reader.requiredString("json", maxLength: JSONInput.maxBytes), jws: try reader.requiredString("jws", maxLength: JSONInput.maxBytes),
            sequence: try required(reader, "sequence"), idempotencyKey: try reader.requiredString("idempotencyKey", maxLength: 256))
    }

    /// `{"keyID", "publicKey" (base64url), "createdAt" (ms), "active"}`.
    public static func json(_ key: StoredPublicKey) -> JSONValue {
        .object([
            ("keyID", .string(key.keyID)), ("publicKey", .string(Base64URL.encode(key.publicKey))),
            ("createdAt", .number(String(key.createdAtMilliseconds))), ("active", .bool(key.isActive)),
        ])
    }

    public static func publicKey(_ json: JSONValue) throws(TenderError) -> StoredPublicKey {
        let reader = try ObjectReader(json, name: "key", allowed: ["keyID", "publicKey", "createdAt", "active"])
        guard let raw = Base64URL.decode(try reader.requiredString("publicKey", maxLength: 128)), raw.count == 32 else {
            throw .invalidArgument("key.publicKey must be a base64url Ed25519 public key")
        }
        return StoredPublicKey(
            keyID: try reader.requiredString("keyID", maxLength: 128), publicKey: raw, createdAtMilliseconds: try required(reader, "createdAt"),
            isActive: try reader.bool("active") ?? false)
    }

    /// `{"id", "at" (ms), "user", "event", "intent", "detail"}`.
    public static func json(_ entry: AuditEntry) -> JSONValue {
        .object([
            ("id", .number(String(entry.id))), ("at", .number(String(entry.atMilliseconds))), ("user", .string(entry.user)),
            ("event", .string(entry.event)), ("intent", .string(entry.intent)), ("detail", .string(entry.detail)),
        ])
    }

    public static func auditEntry(_ json: JSONValue) throws(TenderError) -> AuditEntry {
        let reader = try ObjectReader(json, name: "audit", allowed: ["id", "at", "user", "event", "intent", "detail"])
        return AuditEntry(
            id: try required(reader, "id"), atMilliseconds: try required(reader, "at"), user: try reader.string("user", maxLength: 256) ?? "",
            event: try reader.string("event", maxLength: 64) ?? "", intent: try reader.string("intent", maxLength: 64) ?? "",
            detail: try reader.string("detail", maxLength: 4096) ?? "")
    }

    /// A verification report as ``LedgerVerifier/Report/json`` writes it.
    public static func report(_ json: JSONValue) throws(TenderError) -> LedgerVerifier.Report {
        let reader = try ObjectReader(json, name: "report", allowed: ["valid", "records", "headHash", "keys", "resigned", "testingMode", "unchainedBalances"])
        guard try reader.bool("valid") == true else { throw .invalidArgument("report.valid must be true") }
        var report = LedgerVerifier.Report(
            count: try required(reader, "records"), headHash: try reader.string("headHash", maxLength: 128) ?? "",
            keyIDs: try reader.strings("keys", maxCount: 100_000, maxLength: 128))
        for item in try reader.array("resigned") ?? [] {
            guard case let .number(text) = item, text.count <= 15, let sequence = Int64(text), sequence > 0 else {
                throw .invalidArgument("report.resigned must hold record sequence numbers")
            }
            report.resigned.append(sequence)
        }
        for item in try reader.array("testingMode") ?? [] {
            guard case let .number(text) = item, text.count <= 15, let sequence = Int64(text), sequence > 0 else {
                throw .invalidArgument("report.testingMode must hold record sequence numbers")
            }
            report.testingMode.append(sequence)
        }
        report.unchainedBalances = try reader.strings("unchainedBalances", maxCount: 100_000, maxLength: 256)
        return report
    }

    /// A list member `key` of `body`, each item read by `item`.
    public static func list<T>(_ body: JSONValue, _ key: String, _ item: (JSONValue) throws(TenderError) -> T) throws(TenderError) -> [T] {
        guard let items = body[key]?.arrayValue else { throw .invalidArgument("the broker's answer has no list \"\(key)\"") }
        var values: [T] = []
        values.reserveCapacity(items.count)
        for element in items { values.append(try item(element)) }
        return values
    }

    private static func required(_ reader: ObjectReader, _ key: String) throws(TenderError) -> Int64 {
        guard let value = try reader.count(key) else { throw .invalidArgument("\(reader.name).\(key) is required") }
        return value
    }
}
