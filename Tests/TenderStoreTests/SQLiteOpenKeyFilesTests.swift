// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// An open compares HOME/keys with the keys its store records (continuity, or the keys a new ledger retires). A key
/// file takes its own name only after its key's record committed, so the files must be listed before the store is
/// read: listed after, a key another process recorded and named in between looks unrecorded. Issue 34's one-read
/// open read the store first (review of branch speed34).
@Suite struct SQLiteOpenKeyFilesTests {
    /// A SQLite connection that runs `afterRead` once, right after its first read transaction ends: another
    /// process writing exactly there.
    private final class AfterFirstRead: StoreDatabase {
        let inner: Database
        var afterRead: (() throws -> Void)?
        init(_ inner: Database, afterRead: @escaping () throws -> Void) {
            self.inner = inner
            self.afterRead = afterRead
        }
        var changes: Int { inner.changes }
        func execute(_ sql: String) throws(TenderError) { try inner.execute(sql) }
        func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> Statement {
            try inner.statement(sql, arguments)
        }
        func writeTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T { try inner.writeTransaction(body) }
        func lazyWriteTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T { try inner.lazyWriteTransaction(body) }
        func readTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
            let result = try inner.readTransaction(body)
            if let hook = afterRead {
                afterRead = nil
                do { try hook() } catch { throw .internal("the other writer failed: \(error)") }
            }
            return result
        }
    }

    /// Opens a second store on `home` whose open is interrupted, after its first read, by `other` creating and
    /// recording the home's first key (as another process's first payment does).
    private func openWhileAnotherRecordsTheFirstKey(_ home: TemporaryHome, access: StoreAccess, other: SQLiteStore) throws -> SQLiteStore {
        let path = home.path + "/" + SQLiteStore.fileName
        let writer = try Database(path: path)
        try Schema.migrate(writer)
        let hooked = AfterFirstRead(writer) { _ = try other.activeKey() }
        return try SQLiteStore(
            home: home.path, writer: hooked, reader: try Database(path: path), keys: try KeyDirectory(home: home.path),
            crypto: OpenSSLLedgerCrypto(), access: access, clock: SystemClock())
    }

    /// Fails on 538b1d4: "the ledger ... is empty, but keys/ holds 1 key(s) it never recorded": a sound home refused.
    @Test func anOpenWhileAnotherProcessRecordsTheFirstKeyAcceptsTheHome() throws {
        let home = TemporaryHome()
        let other = try SQLiteStoreTests.openStore(home.path)
        let store = try openWhileAnotherRecordsTheFirstKey(home, access: .readWrite(newLedger: false), other: other)
        let key = try other.activeKey()
        #expect(try store.activeKey().keyID == key.keyID)
        #expect(HomeDirectory.keyIDs(home: home.path) == [key.keyID])
    }

    /// Fails on 538b1d4: the new ledger's open renamed the key the store had just recorded to `.retired`, and no
    /// process could sign for that store again.
    @Test func aNewLedgerOpenWhileAnotherProcessRecordsTheFirstKeyRetiresNothingRecorded() throws {
        let home = TemporaryHome()
        let other = try SQLiteStoreTests.openStore(home.path)
        let store = try openWhileAnotherRecordsTheFirstKey(home, access: .readWrite(newLedger: true), other: other)
        let key = try other.activeKey()
        #expect(HomeDirectory.keyIDs(home: home.path) == [key.keyID])
        #expect(try store.activeKey().keyID == key.keyID)
        #expect(try store.rotateKey().keyID != key.keyID)
        #expect(try store.verify().count == 1)
    }
}
