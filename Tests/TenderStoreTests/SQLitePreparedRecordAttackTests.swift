// SPDX-License-Identifier: Apache-2.0
import Glibc
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// A review of issue 34's records signed before the write lock (``PreparedRecord``), as an adversary: a record
/// prepared for another key at the very head, by a key another process retired, or for a payment then refused, is
/// never stored nor answered, and the ledger stays one chain that verifies.
@Suite struct SQLitePreparedRecordAttackTests {
    /// The store's expected head is the ledger's real head, but names a key the store never recorded (one whose
    /// private key is here): the record prepared with it must not be stored, only the enrolled key signs.
    @Test func aRecordPreparedAtTheHeadByAnUnrecordedKeyIsBuiltAgain() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        let a = try SQLitePreparedRecordTests.pay(store, "a")
        let active = try store.activeKey().keyID
        let stranger = try store.keys.createKey().keyID
        let head = try store.read { (db) throws(TenderError) in try SQLiteStore.head(db) }
        #expect(head.sequence == a.sequence)
        store.expectedHead.withLock { $0 = ExpectedHead(sequence: head.sequence, hash: head.hash, keyIDs: [stranger]) }
        let b = try SQLitePreparedRecordTests.pay(store, "b")
        #expect(try CompactJWS(parsing: b.jws).keyID == active)
        #expect(store.preparePause.withLock { $0 } == SQLiteStore.preparePauseSubmissions)
        #expect(try store.records().map(\.jws) == [a.jws, b.jws])
        #expect(try store.verify().count == 3)
    }

    /// Issue 34 (many homes): an open hands the signer the public key the store records for its key, which it takes
    /// instead of deriving it from the seed. An adversary who can change the store, not read the key, records another
    /// public key there (two signatures of one message under two public keys reveal the private key): it is not the
    /// one the key's id names, so the seed is never paired with it, and the record signed ahead is the real key's.
    @Test func aPublicKeyRecordedForTheKeyThatIsNotItsNeverSignsWithItsSeed() throws {
        let home = TemporaryHome()
        let first = try SQLiteStoreTests.openWithDirectory(home)
        let a = try SQLitePreparedRecordTests.pay(first, "a")
        let kid = try CompactJWS(parsing: a.jws).keyID
        let genuine = try #require(try first.publicKeys().first { $0.keyID == kid }).publicKey
        let stranger = try Ed25519PrivateKey.generate().publicKeyBytes()
        try first.write { (db) throws(TenderError) in
            try db.statement("UPDATE signing_keys SET public_key = ? WHERE kid = ?", [stranger, kid]).run()
        }
        // Another engine's open reads the changed public key with the keys, and its first payment is signed ahead.
        let second = try SQLiteStoreTests.openStore(home.path)
        #expect(second.expectedHead.withLock { $0?.publicKeys[kid] } == stranger)
        let b = try SQLitePreparedRecordTests.pay(second, "b")
        #expect(try CompactJWS(parsing: b.jws).keyID == kid)
        #expect(second.preparePause.withLock { $0 } == 0)
        // With the genuine public key back, the whole chain verifies: b was signed by the real key.
        try second.write { (db) throws(TenderError) in
            try db.statement("UPDATE signing_keys SET public_key = ? WHERE kid = ?", [genuine, kid]).run()
        }
        #expect(try second.verify().count == 3)
    }

    /// Adversary review (issue 34): the key's file holds another seed (corrupted, or replaced) while the store records
    /// the key's genuine public key, whose thumbprint is the key's id, so the open takes it without deriving. The next
    /// engine's payment must never be acknowledged with a record verify refuses: it is refused (the signer finds the
    /// seed is not the recorded key's at its first signature), and the ledger stays the one that verifies. Failed on
    /// the branch's head: the payment was acknowledged, and verify then rejected its record. An engine running when the
    /// file is replaced signs on with the key it read.
    @Test func aKeyFileHoldingAnotherSeedNeverAcknowledgesARecordVerifyRefuses() throws {
        let home = TemporaryHome()
        let first = try SQLiteStoreTests.openWithDirectory(home)
        let a = try SQLitePreparedRecordTests.pay(first, "a")
        let kid = try CompactJWS(parsing: a.jws).keyID
        let keys = try KeyDirectory(home: home.path)
        let candidates: [String] = [keys.file(for: kid), keys.file(for: kid) + KeyDirectory.unrecordedSuffix]
        let file = candidates.first { (name: String) -> Bool in access(name, F_OK) == 0 }
        let path = try #require(file)
        #expect(unlink(path) == 0)
        try KeyFile.create(at: path, contents: try Ed25519PrivateKey.generate().pkcs8PEM())
        // Another engine's open (its own key directory): the recorded public key is taken, the seed is the file's.
        var acknowledged: PaymentRecord?
        #expect(throws: TenderError.self) {
            let second = try SQLiteStoreTests.openStore(home.path)
            acknowledged = try SQLitePreparedRecordTests.pay(second, "b")
        }
        #expect(acknowledged == nil)
        #expect(try first.verify().count == 2)
        // The engine already running when the file was replaced keeps the key it read (held): it pays on, verified.
        _ = try SQLitePreparedRecordTests.pay(first, "c")
        #expect(try first.verify().count == 3)
    }

    /// Another process rotates the key between two payments of a long-open store, whose key directory still holds
    /// the retired private key in memory: the record it prepares with that key is dropped, and the payment is
    /// chained after the rotation, signed by the new key.
    @Test func aKeyRotatedByAnotherStoreNeverSignsAStoredRecord() throws {
        let home = TemporaryHome()
        let first = try SQLiteStoreTests.openWithDirectory(home)
        let a = try SQLitePreparedRecordTests.pay(first, "a")
        let old = try CompactJWS(parsing: a.jws).keyID
        let second = try SQLiteStoreTests.openStore(home.path)
        let new = try second.rotateKey()
        // The retired key's file is gone, but the long-open store signed with it and keeps its signer.
        #expect(throws: TenderError.self) { _ = try KeyDirectory(home: home.path).signer(keyID: old) }
        let b = try SQLitePreparedRecordTests.pay(first, "b")
        #expect(try CompactJWS(parsing: b.jws).keyID == new.keyID)
        #expect(b.sequence == a.sequence + 2)
        #expect(try first.verify().count == 4)
        #expect(try second.verify().count == 4)
    }

    /// A payment refused for funds on a quiet store: its record was signed ahead, but no outcome carries it, the
    /// ledger does not grow, nothing waits for a signature, and the next payment takes that sequence with a record
    /// of its own, signed ahead as well (the refusal did not count as a record that did not fit).
    @Test func aRefusedPaymentsRecordSignedAheadIsNeverAnswered() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        let a = try SQLitePreparedRecordTests.pay(store, "a")
        #expect(try store.submit(try SQLitePreparedRecordTests.submission("rich", amount: "1000000.00")) == .insufficientFunds)
        #expect(try store.records().map(\.sequence) == [a.sequence])
        #expect(store.computedSignatures.withLock { $0.isEmpty })
        #expect(store.preparePause.withLock { $0 } == 0)
        let b = try SQLitePreparedRecordTests.pay(store, "b")
        #expect(b.sequence == a.sequence + 1)
        #expect(!b.json.contains("rich"))
        // The same key again, now affordable, is a new payment with its own record, never the refused one.
        guard case let .paid(c) = try store.submit(try SQLitePreparedRecordTests.submission("rich", amount: "0.02")) else { Issue.record("not paid"); return }
        #expect(c.sequence == b.sequence + 1)
        #expect(try store.verify().count == 4)
    }
}
