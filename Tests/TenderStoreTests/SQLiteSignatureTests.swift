// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Payments committed before their signatures are stored (a batch of several, or a record prepared for another
/// head: each payment here is made so): the next write
/// stores them, an open after a crash signs them again into the same JWS,
/// a row without the key's seal is never signed, and a rotation signs first.
@Suite struct SQLiteSignatureTests {
    private func pay(_ store: SQLiteStore, _ key: String) throws -> PaymentRecord {
        let amount = try Money(decimal: "1.00", currency: try Currency(code: "USD"))
        let submission = PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: "f", amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: amount.currency, delta: -amount.minorUnits)]
        ) { position in JSONWriter.string(.object(position.members(type: "payment"))) }
        // A record signed before its insert is never stored unsigned (SQLitePreparedRecordTests): these tests are about the others.
        try SQLitePreparedRecordTests.misleadExpectedHead(store)
        guard case let .paid(record) = try store.submit(submission) else { throw TenderError.internal("not paid") }
        return record
    }

    /// Ends `store` as a killed process would: the signatures it computed are never stored.
    private func crash(_ store: SQLiteStore) {
        store.computedSignatures.withLock { $0.removeAll() }
    }

    @Test func theNextWriteStoresTheSignatureHandleAnswered() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        let first = try pay(store, "a")
        let stored = try SQLiteStoreTests.storedRow(home, 2)
        #expect(stored.seal != nil && stored.jws.hasSuffix(".") && first.jws.hasPrefix(stored.jws))
        #expect(try store.records().map(\.jws) == [first.jws])
        #expect(try store.verify().resigned.isEmpty)
        _ = try pay(store, "b")
        #expect(try SQLiteStoreTests.storedRow(home, 2) == (first.jws, nil))
    }

    @Test func anOpenAfterACrashSignsAgainTheSameJWSAndVerifySaysSo() throws {
        let home = TemporaryHome()
        var records: [PaymentRecord] = []
        do {
            let store = try SQLiteStoreTests.openWithDirectory(home)
            for key in ["a", "b", "c"] { records.append(try pay(store, key)) }
            crash(store)
        }
        #expect(try SQLiteStoreTests.storedRow(home, 4).seal != nil)
        let reopened = try SQLiteStoreTests.openStore(home.path)
        #expect(try SQLiteStoreTests.storedRow(home, 4) == (records[2].jws, nil))
        #expect(try reopened.records().map(\.jws) == records.map(\.jws))
        let report = try reopened.verify()
        #expect(report.count == 4 && report.resigned == [4])
        #expect(report.json["resigned"] == .array([.number("4")]))
    }

    @Test func aRowWithoutTheKeysSealIsNeverSigned() throws {
        let home = TemporaryHome()
        do {
            let store = try SQLiteStoreTests.openWithDirectory(home)
            _ = try pay(store, "a")
            _ = try pay(store, "b")
            crash(store)
        }
        // Someone without the key rewrites the unsigned record's payload (here: its previousHash).
        let db = try Database(path: home.path + "/" + SQLiteStore.fileName)
        try db.execute("UPDATE ledger SET jws = replace(jws, substr(jws, 200, 4), 'AAAA') WHERE sequence = 3")
        let reopened = try SQLiteStoreTests.openStore(home.path)
        #expect(try SQLiteStoreTests.storedRow(home, 3).seal != nil)
        #expect {
            _ = try reopened.verify()
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("record 3") && message.contains("seal does not check")
        }
    }

    @Test func aRotationSignsEveryPendingRecordBeforeTheOldKeyGoes() throws {
        let home = TemporaryHome()
        let paying = try SQLiteStoreTests.openWithDirectory(home)
        let rotating = try SQLiteStoreTests.openStore(home.path)
        let old = try rotating.activeKey().keyID
        let record = try pay(paying, "a")
        #expect(try SQLiteStoreTests.storedRow(home, 2).seal != nil)
        _ = try rotating.rotateKey()
        #expect(try SQLiteStoreTests.storedRow(home, 2) == (record.jws, nil))
        crash(paying)
        let report = try rotating.verify()
        #expect(report.count == 3 && report.keyIDs.first == old)
    }
}
