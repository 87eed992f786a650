// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 34.2: one read transaction per session call (`readingTogether`): every read inside sees one
/// state of the store, a write on the same thread neither deadlocks nor is lost, and another thread's
/// payment is not held up for longer than the call.
@Suite struct SQLiteReadingTogetherTests {
    private func store(_ home: TemporaryHome) throws -> SQLiteStore {
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory)))
        return store
    }

    private func balance(_ store: SQLiteStore) throws(TenderError) -> Int64 {
        try store.accounts().first { $0.id == "checking" }?.balance.minorUnits ?? -1
    }

    /// Another connection (another process, as far as SQLite knows) commits between two reads of one
    /// call: the second read still sees the first's state; after the call, the new one.
    @Test func everyReadOfOneCallSeesOneStateOfTheStore() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let other = try SQLiteStoreTests.openStore(home.path)
        let raised = try DirectoryDocument(json: try JSONParser.parse("""
            {"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                           "balance": {"amount": "250.00", "currency": "USD"}, "default": true}]}
            """))
        let (first, second) = try store.readingTogether { () throws(TenderError) -> (Int64, Int64) in
            let first = try balance(store)
            try other.importDirectory(raised)
            let second = try balance(store)
            return (first, second)
        }
        #expect(first == 100_00 && second == 100_00)
        #expect(try balance(store) == 250_00)
    }

    /// A write on the thread holding the call's transaction (its writing connection) runs, is seen by
    /// the call's later reads, and the call goes on reading in a transaction of its own.
    @Test func aWriteInsideTheCallRunsAndIsSeen() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let (before, seen) = try store.readingTogether { () throws(TenderError) -> (Bool, Bool) in
            let before = try store.isSignedIn()
            try store.setSignedIn(false)
            return (before, try store.isSignedIn())
        }
        #expect(before && !seen)
        #expect(try !store.isSignedIn())
    }

    /// A payment on another thread while a call holds the writing connection waits for the call, then
    /// commits; reads of other threads meanwhile use the reading connection.
    @Test func anotherThreadsPaymentWaitsOnlyForTheCall() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let money = try Money(decimal: "10.00", currency: try Currency(code: "USD"))
        let submission = PaymentSubmission.signed(
            idempotencyKey: "together-1", fingerprint: "fp", amount: money,
            movements: [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment"))) }
        let paid = PthreadLocked<Bool?>(nil)
        let readElsewhere = PthreadLocked<Int64?>(nil)
        var payer: TestThread?
        let inside = try store.readingTogether { () throws(TenderError) -> Int64 in
            payer = TestThread {
                let outcome = try? store.submit(submission)
                if case .paid? = outcome { paid.withLock { $0 = true } } else { paid.withLock { $0 = false } }
            }
            let reader = TestThread { readElsewhere.withLock { $0 = try? balance(store) } }
            reader.join()  // the other thread's read does not wait for this call
            return try balance(store)
        }
        #expect(inside == 100_00)
        #expect(readElsewhere.withLock { $0 } == 100_00)
        payer?.join()
        #expect(paid.withLock { $0 } == true)
        #expect(try balance(store) == 90_00)
    }
}
