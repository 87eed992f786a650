// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore
@testable import TenderCrypto

/// Record formats 1 and 2 (docs/records.md) against real signatures: a mixed chain verifies, and
/// what a holder of the signing key could write in the new format is refused, each case named.
@Suite struct RecordFormatTests {
    let crypto = OpenSSLLedgerCrypto()

    /// The parameters of a send_payment as the dialog writes them, and its canonical text.
    private static let parameters: [(key: String, value: JSONValue)] = [
        ("payee", .object([("id", .string("tim-cook")), ("displayName", .string("Tim Cook")),
                           ("handle", .object([("id", .string("tc-work")), ("label", .string("work")), ("type", .string("email")),
                                               ("value", .string("tim@example.com"))]))])),
        ("currencyAmount", .object([("amount", .string("5.00")), ("currency", .string("USD"))])),
        ("note", .string("tab\there \"quoted\" \\ café \u{7F}\u{1} end")),
        ("account", .object([("id", .string("checking")), ("nickname", .string("Checking")), ("type", .string("checking"))])),
    ]
    private static var canonical: String { JSONWriter.string(.object([("intent", .string("send_payment"))] + parameters)) }

    private static func effects(_ cents: Int64) -> JSONValue {
        .object([("movements", .array([.object([("account", .string("checking")), ("currency", .string("USD")), ("delta", .number("-\(cents)"))])])),
                 ("onCompletion", .array([]))])
    }

    /// A send_payment record's body in `format` (1 or 2), as the code at bf08003 (1) or now (2) writes it.
    static func body(format: Int, key: String, fingerprint: String? = nil) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = format == 2 ? [("v", .number("2"))] : []
        members += [("id", .string("id-\(key)")), ("intent", .string("send_payment")), ("status", .string("completed"))] + parameters
        members += [("paymentMethod", .object([("type", .string("checking")), ("name", .string("Checking"))])), ("idempotencyKey", .string(key))]
        if format == 2 {
            var ledger = PaymentSubmission.ledgerColumns(
                fingerprint: canonical, amount: try! Money(minorUnits: 500, currency: try! Currency(code: "USD")),
                effects: try! PaymentEffects(json: effects(500)))
            if let fingerprint, case let .object(ledgerMembers) = ledger {
                ledger = .object(ledgerMembers.map { $0.key == "fingerprint" ? ("fingerprint", .string(fingerprint)) : $0 })
            }
            members.append(("ledger", ledger))
        } else {
            members.append(("ledger", .object([
                ("idempotencyKey", .string(key)), ("fingerprint", .string(canonical)), ("account", .string("checking")),
                ("payeeContact", .string("tim-cook")), ("payeeHandle", .string("tc-work")), ("currency", .string("USD")),
                ("amountMinor", .number("500")), ("effects", effects(500)),
            ])))
        }
        return members
    }

    /// A chain of entries, each (type, body members), signed by `signer` as the store writes them.
    private func chain(_ bodies: [(type: String, members: [(key: String, value: JSONValue)])], signer: Ed25519Signer) throws -> [LedgerEntry] {
        var entries: [LedgerEntry] = []
        var previous = LedgerPosition.genesisHash
        for (index, body) in bodies.enumerated() {
            let position = LedgerPosition(sequence: Int64(index + 1), previousHash: previous, createdAtMilliseconds: 0)
            let payload = position.payload(type: body.type, body: JSONWriter.members(body.members))
            let jws = try CompactJWS.sign(payload: Array(payload.utf8), signer: signer)
            entries.append(LedgerEntry(sequence: Int64(index + 1), jws: jws.text))
            previous = try LedgerEntry.hash(ofPayload: jws.payload, crypto: crypto)
        }
        return entries
    }

    private func verify(_ bodies: [(type: String, members: [(key: String, value: JSONValue)])]) throws -> LedgerVerifier.Report {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: [signer.keyID: signer.publicKey])
        return try verifier.verify(try chain(bodies, signer: signer))
    }

    private func expectRefused(_ bodies: [(type: String, members: [(key: String, value: JSONValue)])], naming text: String) {
        #expect {
            _ = try verify(bodies)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains(text)
        }
    }

    private static func v1(_ key: String) -> (type: String, members: [(key: String, value: JSONValue)]) { ("payment", body(format: 1, key: key)) }
    private static func v2(_ key: String) -> (type: String, members: [(key: String, value: JSONValue)]) { ("payment", body(format: 2, key: key)) }

    private static func replacing(_ key: String, with value: JSONValue, in members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        members.map { $0.key == key ? (key, value) : $0 }
    }

    @Test func theSwiftDigestIsOpenSSLs() throws {
        // FIPS 180-2 examples, then every length around the block boundaries.
        #expect(CanonicalSHA256.digest([]) == hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        #expect(CanonicalSHA256.digest(Array("abc".utf8)) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(CanonicalSHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(CanonicalSHA256.digest(bytes) == (try crypto.sha256(bytes)), "length \(length)")
        }
    }

    @Test func aRecordsCanonicalTextIsRebuiltFromItsMembers() throws {
        let record = JSONValue.object([("type", .string("payment"))] + Self.body(format: 2, key: "k"))
        #expect(PaymentFingerprint.canonicalText(ofRecord: record) == Self.canonical)
        #expect(Self.canonical.contains(#""note":"tab\there \"quoted\" \\ café \u007f\u0001 end""#))
        #expect(record["ledger"]?["fingerprint"]?.stringValue == Base64URL.encode(try crypto.sha256(Array(Self.canonical.utf8))))
    }

    @Test func formatOneAndTwoChainTogether() throws {
        let report = try verify([Self.v1("a"), Self.v1("b"), Self.v2("c"), ("testing_mode", [("service", .string("x"))]), Self.v2("d")])
        #expect(report.count == 5)
    }

    @Test func aFormatTwoRecordEditedAfterItWasSignedIsNamedAsSuch() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain([Self.v1("a"), Self.v2("b")], signer: signer)
        let parts = entries[1].jws.split(separator: ".")
        let payload = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
        let edited = payload.replacingOccurrences(#""amount":"5.00""#, with: #""amount":"9.00""#)
        #expect(edited != payload)
        entries[1] = LedgerEntry(sequence: 2, jws: "\(parts[0]).\(Base64URL.encode(Array(edited.utf8))).\(parts[2])")
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: [signer.keyID: signer.publicKey])
        #expect(throws: TenderError.ledgerTampered("record 2: the signature does not verify")) { _ = try verifier.verify(entries) }
    }

    @Test func aLedgerNeverGoesBackToFormatOne() {
        expectRefused([Self.v1("a"), Self.v2("b"), Self.v1("c")], naming: "record 3: a format-1 payment record after the format-2 record 2")
    }

    @Test func anUnknownFormatIsRefused() {
        for value: JSONValue in [.number("3"), .number("1"), .number("2.0"), .number("20e-1"), .string("2"), .null, .bool(true), .object([])] {
            expectRefused([Self.v1("a"), ("payment", Self.replacing("v", with: value, in: Self.body(format: 2, key: "b")))],
                          naming: "record 2: an unknown record format")
        }
    }

    @Test func onlyPaymentRecordsCarryAFormat() {
        expectRefused([Self.v2("a"), ("testing_mode", [("v", .number("2")), ("service", .string("x"))])], naming: "record 2: a testing_mode entry carrying a record format")
    }

    @Test func aFormatTwoRecordWithFormatOneMembersIsRefused() {
        // The format-1 ledger member under "v": 2: its fingerprint is the text, and it holds the key, account and payee again.
        let formatOne = Self.body(format: 1, key: "a")
        expectRefused([("payment", [("v", .number("2"))] + formatOne)], naming: "record 1: a format-2 record whose ledger member holds")
        // Only the fingerprint of format 1 in a format-2 ledger member.
        expectRefused([("payment", Self.body(format: 2, key: "a", fingerprint: Self.canonical))],
                      naming: "record 1: a format-2 record whose fingerprint is not the base64url text of a SHA-256 digest")
        // A format-2 record without its idempotency key.
        expectRefused([("payment", Self.body(format: 2, key: "a").filter { $0.key != "idempotencyKey" })],
                      naming: "record 1: a format-2 record without its idempotency key")
    }

    @Test func aFingerprintOfOtherOrNonCanonicalParametersIsRefused() throws {
        let digest = { (text: String) in Base64URL.encode(CanonicalSHA256.digest(Array(text.utf8))) }
        let others = [
            // Other parameters.
            digest(Self.canonical.replacingOccurrences("5.00", with: "5.01")),
            // The same parameters written another way: with a space, members reordered, an escape written \u0009.
            digest(Self.canonical.replacingOccurrences(#""intent":"#, with: #""intent": "#)),
            digest(JSONWriter.string(.object(Self.parameters.reversed() + [("intent", .string("send_payment"))]))),
            digest(Self.canonical.replacingOccurrences(#"\t"#, with: #"\u0009"#)),
            // Padded, or with other trailing bits than the digest's base64url text.
            digest(Self.canonical) + "=",
            String(digest(Self.canonical).dropLast()) + (digest(Self.canonical).last == "A" ? "B" : "A"),
        ]
        #expect(Set(others).count == others.count)
        for (index, other) in others.enumerated() {
            expectRefused([("payment", Self.body(format: 2, key: "a", fingerprint: other))], naming: index < 4 ? "record 1: its fingerprint is not the SHA-256 of its canonical parameters" : "record 1: ")
        }
        // And a record changed under its fingerprint (another amount).
        let changed = Self.replacing("currencyAmount", with: .object([("amount", .string("5.01")), ("currency", .string("USD"))]), in: Self.body(format: 2, key: "a"))
        expectRefused([("payment", changed)], naming: "record 1: its fingerprint is not the SHA-256 of its canonical parameters")
        // A record whose parameters cannot be rebuilt (an account without an id).
        let noID = Self.replacing("account", with: .object([("nickname", .string("Checking"))]), in: Self.body(format: 2, key: "a"))
        expectRefused([("payment", noID)], naming: "record 1: a format-2 record without the parameters its fingerprint covers")
    }
}

extension String {
    /// This text with every `target` replaced by `replacement` (no Foundation).
    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
