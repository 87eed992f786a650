// SPDX-License-Identifier: Apache-2.0
/// The format of a payment record (docs/records.md). Format 1, the records written before format 2,
/// carries no `"v"` member and keeps its canonical parameters as JSON text in `ledger.fingerprint`;
/// format 2 says `"v": 2`, keeps each value once, and keeps in `ledger.fingerprint` the SHA-256 of the
/// canonical parameters (``PaymentFingerprint``). Verify accepts both, forever, but a ledger never goes
/// back: no format-1 payment after a format-2 one. Only payment records carry a version. Pure.
public enum RecordFormat {
    /// The format new payment records are written in.
    public static let current = 2
    /// The member naming the format.
    public static let member = "v"
    /// The members of a format-2 record's `"ledger"` member, in the order they are written.
    public static let ledgerMembers = ["fingerprint", "currency", "amountMinor", "effects"]

    /// The format of an entry's signed `payload`: 1 without a `"v"` member, 2 for `"v": 2` (the number
    /// written exactly `2`). Throws ``TenderError/ledgerTampered(_:)`` for any other value.
    public static func of(_ payload: JSONValue) throws(TenderError) -> Int {
        guard let value = payload[member] else { return 1 }
        guard value == .number("2") else {
            throw .ledgerTampered("an unknown record format \(JSONWriter.string(value).prefix(20)); this Tender reads formats 1 and 2")
        }
        return 2
    }

    /// The payee a format-2 record's store row remembers (the most recent payee): a `send_payment`'s
    /// `payee.id` and `payee.handle.id`; nil for another intent or a record without them.
    public static func recentPayee(ofFormatTwo record: JSONValue) -> RecentPayee? {
        guard record["intent"]?.stringValue == IntentSchema.sendPayment.name, let contact = record["payee"]?["id"]?.stringValue,
            let handle = record["payee"]?["handle"]?["id"]?.stringValue
        else { return nil }
        return RecentPayee(contactID: contact, handleID: handle)
    }

    /// Checks a format-2 payment record's own rules: its `"ledger"` member holds exactly
    /// ``ledgerMembers`` (no format-1 member), its idempotency key is text, and its fingerprint is the
    /// base64url SHA-256 of the canonical parameters rebuilt from the record (``PaymentFingerprint``),
    /// hashed with `crypto`. Throws ``TenderError/ledgerTampered(_:)`` naming what is wrong.
    public static func checkFormatTwo(_ payload: JSONValue, crypto: any LedgerCrypto) throws(TenderError) {
        guard let ledger = payload["ledger"]?.objectMembers else { throw .ledgerTampered("a format-2 record without its ledger member") }
        guard ledger.map(\.key).sorted() == ledgerMembers.sorted() else {
            throw .ledgerTampered("a format-2 record whose ledger member holds \(ledger.map(\.key).joined(separator: ", ")), not \(ledgerMembers.joined(separator: ", "))")
        }
        guard payload["idempotencyKey"]?.stringValue != nil else { throw .ledgerTampered("a format-2 record without its idempotency key") }
        guard let signed = payload["ledger"]?["fingerprint"]?.stringValue, let digest = Base64URL.decode(signed), digest.count == 32,
            Base64URL.encode(digest) == signed
        else { throw .ledgerTampered("a format-2 record whose fingerprint is not the base64url text of a SHA-256 digest") }
        guard let canonical = PaymentFingerprint.canonicalText(ofRecord: payload) else {
            throw .ledgerTampered("a format-2 record without the parameters its fingerprint covers")
        }
        guard try crypto.sha256(Array(canonical.utf8)) == digest else {
            throw .ledgerTampered("its fingerprint is not the SHA-256 of its canonical parameters")
        }
    }
}
