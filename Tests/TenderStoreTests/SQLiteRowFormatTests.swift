// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// A payment row keeps its fingerprint as a digest and its effects only in
/// the signed payload (schema 7); rows a schema-6 store wrote keep both as
/// text. Both kinds pay exactly once, change status and verify, column by column.
/// (Entry 1 is the directory's signed balances; the payments follow.)
@Suite struct SQLiteRowFormatTests {
    private let usd = try! Currency(code: "USD")

    private func submission(_ key: String, fingerprint: String, cents: Int64 = 100, status: PaymentStatus = .completed) throws -> PaymentSubmission {
        PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: fingerprint, amount: try Money(minorUnits: cents, currency: usd),
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -cents)], payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in
            JSONWriter.string(.object(position.members(type: "payment") + [
                ("id", .string("id-" + key)), ("intent", .string("send_payment")), ("status", .string(status.rawValue)), ("idempotencyKey", .string(key)),
            ]))
        }
    }

    private func open(_ home: TemporaryHome) throws -> SQLiteStore { try SQLiteStoreTests.openStore(home.path) }

    private func database(_ home: TemporaryHome) throws -> Database { try Database(path: home.path + "/" + SQLiteStore.fileName) }

    private func paid(_ outcome: SubmissionOutcome) throws -> PaymentRecord {
        guard case let .paid(record) = outcome else { throw TenderError.internal("not paid: \(outcome)") }
        return record
    }

    private func expectTampered(_ store: SQLiteStore, naming column: String) {
        #expect {
            _ = try store.verify()
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("the stored column \(column) disagrees")
        }
    }

    /// The storage class and size of the fingerprint, and whether effects is NULL, in row `sequence`.
    private func stored(_ home: TemporaryHome, _ sequence: Int64) throws -> (type: String, bytes: Int64, effectsNull: Bool) {
        let row = try database(home).statement(
            "SELECT typeof(fingerprint), length(CAST(fingerprint AS BLOB)), effects IS NULL FROM ledger WHERE sequence = ?", [sequence])
        guard try row.step() else { throw TenderError.internal("no row \(sequence)") }
        return (row.text(0) ?? "", row.int64(1), row.int64(2) == 1)
    }

    /// Rewrites every payment row as a schema-6 store wrote it (the fingerprint and effects as text) and marks the store version 6.
    private func makeVersion6(_ home: TemporaryHome) throws {
        let db = try database(home)
        let rows = try db.statement("SELECT sequence, jws FROM ledger WHERE type = 'payment'").rows { ($0.int64(0), $0.text(1) ?? "") }
        for (sequence, jws) in rows {
            let ledger = try JSONParser.parse(String(decoding: try CompactJWS(parsing: jws).payload, as: UTF8.self))["ledger"]
            guard let fingerprint = ledger?["fingerprint"]?.stringValue, let effects = ledger?["effects"] else { throw TenderError.internal("no ledger member") }
            try db.statement("UPDATE ledger SET fingerprint = ?, effects = ? WHERE sequence = ?", [fingerprint, JSONWriter.string(effects), sequence]).run()
        }
        // Schema 10's claims table did not exist then.
        try db.execute("DROP TABLE claims; PRAGMA user_version = 6")
    }

    private func version(_ home: TemporaryHome) throws -> Int64 {
        let row = try database(home).statement("PRAGMA user_version")
        _ = try row.step()
        return row.int64(0)
    }

    @Test func aNewRowKeepsTheFingerprintsDigestAndPaysExactlyOnce() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
        let record = try paid(try store.submit(try submission("a", fingerprint: "the canonical parameters")))
        let row = try stored(home, 2)
        #expect(row.type == "blob" && row.bytes == 32 && row.effectsNull)
        #expect(try store.submit(try submission("a", fingerprint: "the canonical parameters")) == .alreadyPaid(record))
        #expect(throws: TenderError.idempotencyConflict("this idempotency key already paid a payment with other parameters")) {
            try store.submit(try submission("a", fingerprint: "other parameters"))
        }
        // The text comes back from the signed payload.
        let found = try #require(try store.payment(idempotencyKey: "a"))
        #expect(found.fingerprint == "the canonical parameters" && found.record == record)
        #expect(try store.verify().count == 2)
    }

    @Test func aDigestOrEffectsThatDisagreeWithTheSignedPayloadAreNamed() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
        _ = try paid(try store.submit(try submission("a", fingerprint: "f-a")))
        _ = try paid(try store.submit(try submission("b", fingerprint: "f-b")))
        let db = try database(home)
        // Another row's digest: the exactly-once check would take b's parameters for a's.
        try db.execute("UPDATE ledger SET fingerprint = (SELECT fingerprint FROM ledger WHERE sequence = 3) WHERE sequence = 2")
        expectTampered(store, naming: "fingerprint")
        #expect(throws: TenderError.self) { try store.payment(idempotencyKey: "a") }
        #expect(throws: TenderError.idempotencyConflict("this idempotency key already paid a payment with other parameters")) {
            try store.submit(try submission("a", fingerprint: "f-a"))
        }
        try db.execute("UPDATE ledger SET fingerprint = zeroblob(32) WHERE sequence = 2")
        expectTampered(store, naming: "fingerprint")
        // The text of the right fingerprint in a new row, without the effects an old row kept: named too.
        try db.statement("UPDATE ledger SET fingerprint = ? WHERE sequence = 2", ["f-a"]).run()
        expectTampered(store, naming: "effects")
        try db.statement("UPDATE ledger SET fingerprint = ? WHERE sequence = 2", [try StoredFingerprint.digest(of: "f-a", crypto: OpenSSLLedgerCrypto())]).run()
        #expect(try store.verify().count == 3)
        // Effects beside a new row, even the signed ones, are not what this version writes.
        try db.execute("UPDATE ledger SET effects = '{\"movements\":[],\"onCompletion\":[]}' WHERE sequence = 3")
        expectTampered(store, naming: "effects")
    }

    @Test func aStoreWrittenBySchemaSixOpensVerifiesAndPaysExactlyOnce() throws {
        let home = TemporaryHome()
        var old: [PaymentRecord] = []
        do {
            let store = try open(home)
            try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
            old.append(try paid(try store.submit(try submission("old-1", fingerprint: "f-1"))))
            old.append(try paid(try store.submit(try submission("old-2", fingerprint: "f-2", cents: 250, status: .pending))))
        }
        try makeVersion6(home)
        #expect(try stored(home, 2).type == "text" && !(try stored(home, 3).effectsNull))

        // Read-only (tender verify): verifies as it is and changes nothing.
        do {
            let reader = try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
            #expect(try reader.verify().count == 3)
            #expect(try reader.payment(idempotencyKey: "old-1")?.fingerprint == "f-1")
        }
        #expect(try version(home) == 6)

        let store = try open(home)
        #expect(try version(home) == Schema.version)
        #expect(try database(home).statement("SELECT count(*) FROM claims").step())  // migrated: the table of schema 10
        #expect(try stored(home, 2).type == "text")  // nothing rewritten
        #expect(try store.submit(try submission("old-1", fingerprint: "f-1")) == .alreadyPaid(old[0]))
        #expect(throws: TenderError.self) { try store.submit(try submission("old-1", fingerprint: "f-other")) }
        #expect(try store.payment(idempotencyKey: "old-2")?.fingerprint == "f-2")
        let new = try paid(try store.submit(try submission("new", fingerprint: "f-3")))
        #expect(try stored(home, 4).type == "blob")
        #expect(try store.submit(try submission("new", fingerprint: "f-3")) == .alreadyPaid(new))
        // The old pending payment's effects still undo it.
        let before = try store.accounts()[0].balance.minorUnits
        _ = try store.changeStatus(idempotencyKey: "old-2", to: .canceled)
        #expect(try store.accounts()[0].balance.minorUnits == before + 250)
        #expect(try store.verify().count == 5)

        // An old row's text columns are still checked.
        let db = try database(home)
        try db.execute("UPDATE ledger SET fingerprint = 'f-other' WHERE sequence = 2")
        expectTampered(store, naming: "fingerprint")
        try db.execute("UPDATE ledger SET fingerprint = 'f-1', effects = NULL WHERE sequence = 2")
        expectTampered(store, naming: "effects")
    }

    @Test func aReadOnlyOpenRefusesAStoreFromTheFuture() throws {
        let home = TemporaryHome()
        _ = try open(home)
        try database(home).execute("PRAGMA user_version = 99")
        #expect(throws: TenderError.store("the store has schema version 99; this Tender knows up to \(Schema.version)")) {
            try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
        }
    }
}
