// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// The signed ledger as the store keeps it: verification, rotation, checkpoints, tampering.
@Suite struct SQLiteLedgerTests {
    private func paidStore(_ home: TemporaryHome, payments: Int) throws -> SQLiteStore {
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
        for index in 0..<payments {
            let amount = try Money(decimal: "1.00", currency: try Currency(code: "USD"))
            let submission = PaymentSubmission.signed(
                idempotencyKey: "k\(index)", fingerprint: "f", amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: amount.currency, delta: -amount.minorUnits)],
                payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
            ) { position in JSONWriter.string(.object(position.members(type: "payment"))) }
            _ = try store.submit(submission)
        }
        return store
    }

    private func execute(_ home: TemporaryHome, _ sql: String) throws {
        try Database(path: home.path + "/" + SQLiteStore.fileName).execute(sql)
    }

    private func expectTampered(_ store: SQLiteStore, checkpoint: String? = nil, naming text: String) {
        #expect {
            _ = try store.verify(checkpoint: checkpoint)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains(text)
        }
    }

    @Test func recordsAreSignedAndChained() throws {
        let home = TemporaryHome()
        let store = try paidStore(home, payments: 3)
        let report = try store.verify()
        // The directory's balances are the first entry; the payments follow.
        #expect(report.count == 4)
        let records = try store.records()
        #expect(records.map(\.sequence) == [2, 3, 4])
        let balances = try JSONParser.parse(String(decoding: try CompactJWS(parsing: try store.ledgerEntries()[0].jws).payload, as: UTF8.self))
        #expect(balances["type"] == .string("balances") && balances["previousHash"] == .string(LedgerPosition.genesisHash))
        let first = try JSONParser.parse(records[0].json)
        #expect(first["previousHash"] == .string(try LedgerEntry.hash(ofPayload: Array(JSONWriter.string(balances).utf8), crypto: OpenSSLLedgerCrypto())))
        let second = try JSONParser.parse(records[1].json)
        let link = try LedgerEntry.hash(ofPayload: Array(records[0].json.utf8), crypto: OpenSSLLedgerCrypto())
        #expect(second["previousHash"] == .string(link))
        let jws = try CompactJWS(parsing: records[0].jws)
        let active = try store.activeKey().keyID
        #expect(jws.algorithm == "Ed25519" && jws.keyID == active)
    }

    @Test func editsDeletionsAndReorderingAreNamed() throws {
        let home = TemporaryHome()
        let store = try paidStore(home, payments: 5)
        try execute(home, "UPDATE ledger SET jws = replace(jws, substr(jws, 60, 1), CASE substr(jws, 60, 1) WHEN 'A' THEN 'B' ELSE 'A' END) WHERE sequence = 3")
        expectTampered(store, naming: "record 3")

        let deleted = TemporaryHome()
        let second = try paidStore(deleted, payments: 5)
        try execute(deleted, "PRAGMA foreign_keys = OFF; DELETE FROM ledger WHERE sequence = 2; UPDATE ledger SET sequence = sequence - 1 WHERE sequence > 2")
        expectTampered(second, naming: "record 2")

        let swapped = TemporaryHome()
        let third = try paidStore(swapped, payments: 5)
        try execute(swapped, """
            UPDATE ledger SET jws = CASE sequence WHEN 2 THEN (SELECT jws FROM ledger WHERE sequence = 4)
                                                  ELSE (SELECT jws FROM ledger WHERE sequence = 2) END
            WHERE sequence IN (2, 4)
            """)
        expectTampered(third, naming: "record 2")
    }

    @Test func checkpointsCatchTruncation() throws {
        let home = TemporaryHome()
        let store = try paidStore(home, payments: 4)
        let checkpoint = try store.checkpoint()
        #expect(try store.verify(checkpoint: checkpoint).count == 5)
        try execute(home, "PRAGMA foreign_keys = OFF; DELETE FROM ledger WHERE sequence > 3")
        // The balance re-derived from the shorter ledger disagrees; put back, only the checkpoint can tell.
        expectTampered(store, checkpoint: nil, naming: "the stored balance disagrees with the signed ledger for: checking")
        try execute(home, "UPDATE accounts SET balance_minor = 9800 WHERE id = 'checking'")
        #expect(try store.verify().count == 3)
        expectTampered(store, checkpoint: checkpoint, naming: "truncated")
    }

    @Test func rotationKeepsOldRecordsVerifiableAndDestroysTheOldKey() throws {
        let home = TemporaryHome()
        let store = try paidStore(home, payments: 2)
        let old = try store.activeKey()
        let new = try store.rotateKey()
        #expect(new.keyID != old.keyID && new.isActive)
        #expect(access("\(home.path)/keys/\(old.keyID).pem", F_OK) != 0)
        _ = try paidStore(home, payments: 0)
        let amount = try Money(decimal: "2.00", currency: try Currency(code: "USD"))
        _ = try store.submit(PaymentSubmission.signed(
            idempotencyKey: "after", fingerprint: "f", amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: amount.currency, delta: -amount.minorUnits)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment"))) })
        let report = try store.verify(trustedKeys: [old.keyID: old.publicKey])
        // The directory's balances, 2 payments, the rotation, the balances again, a payment.
        #expect(report.count == 6 && report.keyIDs == [old.keyID, new.keyID])
        #expect(try store.publicKeys().map(\.keyID) == [old.keyID, new.keyID])
        // A second process that still had the old key loaded now signs with the new one.
        let other = try SQLiteStoreTests.openStore(home.path)
        #expect(try CompactJWS(parsing: try other.checkpoint()).keyID == new.keyID)
    }

    @Test func anUnsafeKeyFileIsRefused() throws {
        let home = TemporaryHome()
        let store = try paidStore(home, payments: 1)
        let kid = try store.activeKey().keyID
        chmod("\(home.path)/keys/\(kid).pem", 0o644)
        let fresh = try SQLiteStoreTests.openStore(home.path)
        #expect(throws: TenderError.self) { try fresh.checkpoint() }
    }
}
