// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 34, lever 2: the store's mark (``SQLiteStore/stateMark()``), on which a session reuses its last reading, is the
/// same only while nothing changed: any write of this store, of another connection (another process, as far as SQLite
/// knows) moves it; outside one read transaction there is none.
@Suite struct SQLiteStateMarkTests {
    private func store(_ home: TemporaryHome) throws -> SQLiteStore {
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
        return store
    }

    private func mark(_ store: SQLiteStore) throws -> DirectoryMark? {
        try store.readingTogether { () throws(TenderError) in try store.stateMark() }
    }

    private static let raised = """
        {"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "250.00", "currency": "USD"}, "default": true}]}
        """

    @Test func theMarkHoldsWhileNothingChanges() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let first = try #require(try mark(store))
        _ = try store.accounts()
        _ = try store.records()
        #expect(try mark(store) == first)
        #expect(try store.stateMark() == nil)  // outside one read transaction: none
    }

    @Test func aWriteOfTheStoreMovesTheMark() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let first = try #require(try mark(store))
        try store.setSignedIn(false)
        let second = try #require(try mark(store))
        #expect(second != first)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.raised)))
        #expect(try mark(store) != second)
    }

    /// Another connection's commit (another process's, as SQLite sees it) moves the mark, though this store wrote nothing.
    @Test func anotherConnectionsWriteMovesTheMark() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let other = try SQLiteStoreTests.openStore(home.path)
        let first = try #require(try mark(store))
        try other.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.raised)))
        #expect(try mark(store) != first)
    }
}
