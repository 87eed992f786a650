// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 34: a payment submitted while its store is quiet has its record built and signed before the write lock,
/// and goes into the ledger signed (no seal, no index entry, no rewrite of its row by the next write); a record
/// prepared for a head or key the batch does not find is never stored, and the payment is made as before.
@Suite struct SQLitePreparedRecordTests {
    /// A payment of `decimal` dollars from checking to Tim Cook under `key`.
    static func submission(_ key: String, amount decimal: String = "0.01") throws -> PaymentSubmission {
        let amount = try Money(decimal: decimal, currency: try Currency(code: "USD"))
        return PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: "fp-\(key)-\(decimal)", amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: amount.currency, delta: -amount.minorUnits)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("key", .string(key))])) }
    }

    /// Pays 1 cent under `key`; throws unless it was paid now.
    static func pay(_ store: SQLiteStore, _ key: String) throws -> PaymentRecord {
        guard case let .paid(record) = try store.submit(try submission(key)) else { throw TenderError.internal("not paid") }
        return record
    }

    /// Makes `store` expect its next record at a head the ledger does not have, so the next batch builds it again.
    static func misleadExpectedHead(_ store: SQLiteStore) throws {
        let kids = try store.publicKeys().filter(\.isActive).map(\.keyID)
        store.expectedHead.withLock { $0 = ExpectedHead(sequence: 1_000_000, hash: LedgerPosition.genesisHash, keyIDs: kids) }
    }

    /// Fails before issue 34's change: each row was stored as its signing input and a dot, sealed, until the next write.
    @Test func aPaymentOnAQuietStoreIsStoredSignedAtOnce() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        for (index, key) in ["a", "b", "c"].enumerated() {
            let record = try Self.pay(store, key)
            #expect(record.sequence == Int64(index + 2))
            #expect(try SQLiteStoreTests.storedRow(home, record.sequence) == (record.jws, nil))
            #expect(try !store.hasUnsignedRecords())
        }
        let report = try store.verify()
        #expect(report.count == 4 && report.resigned.isEmpty)
    }

    /// A host serving many people opens an engine per payment: the open reads the head and the keys in its one read
    /// transaction, and the first payment is signed ahead as well.
    @Test func aStoreOpenedOnAnExistingHomeSignsItsFirstPaymentAhead() throws {
        let home = TemporaryHome()
        do { _ = try Self.pay(try SQLiteStoreTests.openWithDirectory(home), "a") }
        let reopened = try SQLiteStoreTests.openStore(home.path)
        #expect(reopened.expectedHead.withLock { $0?.sequence } == 2)
        let b = try Self.pay(reopened, "b")
        #expect(try SQLiteStoreTests.storedRow(home, 3) == (b.jws, nil))
        #expect(try reopened.verify().count == 3)
    }

    /// Another store on the same home writes between two payments: the first store's prepared record expects the
    /// old head, is dropped, and its payment is chained after the other's (sealed, signed during the flush).
    @Test func aRecordPreparedForAnotherHeadIsBuiltAgainAtTheHead() throws {
        let home = TemporaryHome()
        let first = try SQLiteStoreTests.openWithDirectory(home)
        let second = try SQLiteStoreTests.openStore(home.path)
        let a = try Self.pay(first, "a")
        let b = try Self.pay(second, "b")
        let c = try Self.pay(first, "c")
        #expect([a.sequence, b.sequence, c.sequence] == [2, 3, 4])
        #expect(try SQLiteStoreTests.storedRow(home, 4).seal != nil)
        let payloads = try [a, b, c].map { try JSONParser.parse($0.json) }
        #expect(payloads[2]["previousHash"]?.stringValue == (try LedgerEntry.hash(ofPayload: Array(b.json.utf8), crypto: OpenSSLLedgerCrypto())))
        #expect(try first.records().map(\.jws) == [a.jws, b.jws, c.jws])
        // A record that did not fit makes the next ones not prepared for a while (they would most likely not fit either).
        #expect(first.preparePause.withLock { $0 } == SQLiteStore.preparePauseSubmissions)
        let d = try Self.pay(first, "d")
        #expect(try SQLiteStoreTests.storedRow(home, 4) == (c.jws, nil) && SQLiteStoreTests.storedRow(home, 5).seal != nil)
        #expect(try first.records().map(\.jws) == [a.jws, b.jws, c.jws, d.jws])
        #expect(try first.verify().count == 5)
    }

    /// A key rotation between two payments: the record prepared by the old key is dropped, and the old key is
    /// not kept for the next one.
    @Test func aRotationBetweenPaymentsSignsTheNextWithTheNewKey() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        _ = try Self.pay(store, "a")
        let new = try store.rotateKey()
        #expect(store.expectedHead.withLock { $0 } == nil)
        let b = try Self.pay(store, "b")
        #expect(try CompactJWS(parsing: b.jws).keyID == new.keyID)
        #expect(try store.verify().count == 4)
    }

    /// The same key paid again while its first record was prepared: one payment, the same JWS.
    @Test func aRetryOfAPaidKeyAnswersTheStoredRecord() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        let first = try Self.pay(store, "a")
        guard case let .alreadyPaid(again) = try store.submit(try Self.submission("a")) else { Issue.record("paid twice"); return }
        #expect(again.jws == first.jws && again.sequence == first.sequence)
        #expect(try store.verify().count == 2)
    }

    /// The log frames a payment writes (deterministic): signed at its insert, at least one page fewer than a
    /// payment whose record waits for its signature (its entry in `ledger_unsigned`, and its row written again).
    @Test func aPaymentStoredSignedWritesAtLeastOneFrameFewer() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        for index in 0..<20 { _ = try Self.pay(store, "warm-\(index)") }
        let count = 40
        let signed = try store.logFrames { for index in 0..<count { _ = try Self.pay(store, "signed-\(index)") } }
        _ = try Self.pay(store, "between")
        let unsigned = try store.logFrames {
            for index in 0..<count {
                try Self.misleadExpectedHead(store)
                _ = try Self.pay(store, "unsigned-\(index)")
            }
        }
        let perPayment = (signed: Double(signed) / Double(count), unsigned: Double(unsigned) / Double(count))
        print("log frames a payment: \(perPayment.signed) stored signed, \(perPayment.unsigned) waiting for the signature")
        #expect(perPayment.signed + 1 <= perPayment.unsigned)
        #expect(try store.verify().count == Int64(1 + 20 + 2 * count + 1))
    }
}
