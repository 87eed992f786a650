// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

@Suite struct SQLiteStoreTests {
    static let directory = """
        {"contacts": [
          {"id": "tim-cook", "displayName": "Tim Cook",
           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"},
                       {"id": "tc-home", "label": "home", "type": "phone", "value": "+1"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true},
                      {"id": "yen", "type": "savings", "balance": {"amount": "0", "currency": "JPY"}}]}
        """

    static func openStore(_ path: String) throws -> SQLiteStore {
        try SQLiteStore.prepareHome(path)
        return try SQLiteStore(home: path, keys: try KeyDirectory(home: path), crypto: OpenSSLLedgerCrypto())
    }

    private func store(_ home: TemporaryHome) throws -> SQLiteStore { try Self.openWithDirectory(home) }

    /// A store on `home` with the suite's directory imported (Tim Cook, checking with $100).
    static func openWithDirectory(_ home: TemporaryHome) throws -> SQLiteStore {
        let store = try openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(directory)))
        return store
    }

    /// The stored jws and seal of record `sequence`, read on a connection of its own.
    static func storedRow(_ home: TemporaryHome, _ sequence: Int64) throws -> (jws: String, seal: String?) {
        let db = try Database(path: home.path + "/" + SQLiteStore.fileName)
        let row = try db.statement("SELECT jws, seal FROM ledger WHERE sequence = ?", [sequence])
        guard try row.step() else { throw TenderError.internal("no record \(sequence)") }
        let found = (row.text(0) ?? "", row.text(1))
        _ = try row.step()
        return found
    }

    private func submission(key: String, amount: String = "10.00", account: String = "checking") throws -> PaymentSubmission {
        let money = try Money(decimal: amount, currency: try Currency(code: "USD"))
        return PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: "fp-\(amount)", amount: money,
            movements: [BalanceMovement(accountID: account, currency: money.currency, delta: -money.minorUnits)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in
            JSONWriter.string(.object(position.members(type: "payment") + [("key", .string(key))]))
        }
    }

    /// Issue 30.3: the store remembers the handle paid (kind and value), in the payment's own transaction,
    /// for the newPayee rule; a contact or handle id is not a party, and a refused payment remembers nothing.
    @Test func aPaymentRemembersTheHandlePaidAndNothingElse() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let money = try Money(decimal: "10.00", currency: try Currency(code: "USD"))
        func pay(_ key: String, _ amount: Money) -> PaymentSubmission {
            PaymentSubmission.signed(
                idempotencyKey: key, fingerprint: "fp-\(key)", amount: amount,
                movements: [BalanceMovement(accountID: "checking", currency: amount.currency, delta: -amount.minorUnits)],
                payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work"), paidParty: "email:tim@example.com"
            ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("key", .string(key))])) }
        }
        #expect(try !store.hasPaid(party: "email:tim@example.com"))
        #expect(try store.submit(pay("too-much", try Money(decimal: "500.00", currency: money.currency))) == .insufficientFunds)
        #expect(try !store.hasPaid(party: "email:tim@example.com"))
        guard case .paid = try store.submit(pay("a", money)) else { Issue.record("not paid"); return }
        #expect(try store.hasPaid(party: "email:tim@example.com"))
        #expect(try !store.hasPaid(party: "tim-cook") && !store.hasPaid(party: "tc-work") && !store.hasPaid(party: "phone:+1"))
        let reopened = try Self.openStore(home.path)
        #expect(try reopened.hasPaid(party: "email:tim@example.com"))
    }

    @Test func directoryRoundTripsInOrder() throws {
        let home = TemporaryHome()
        let store = try store(home)
        let contacts = try store.contacts()
        #expect(contacts.map(\.id) == ["tim-cook"])
        #expect(contacts[0].handles.map(\.label) == ["work", "home"])
        #expect(try store.contact(id: "tim-cook") == contacts[0])
        #expect(try store.contact(id: "nobody") == nil)
        let accounts = try store.accounts()
        #expect(accounts.map(\.id) == ["checking", "yen"])
        #expect(accounts[1].balance.decimalString == "0" && accounts[1].balance.currency.code == "JPY")
        #expect(try store.payingAccount(for: try Currency(code: "USD"))?.id == "checking")
    }

    @Test func anEmbeddedNULDoesNotShortenAnIdentifier() throws {
        let home = TemporaryHome()
        let store = try store(home)
        #expect(try store.contact(id: "tim-cook\u{0}x") == nil)
        #expect(try store.contact(id: "tim-cook") != nil)
    }

    @Test func reimportReplacesHandlesAndKeepsOrder() throws {
        let home = TemporaryHome()
        let store = try store(home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(
            #"{"contacts":[{"id":"tim-cook","displayName":"Timothy Cook","handles":[{"id":"m","label":"mobile","type":"phone","value":"2"}]}]}"#)))
        let tim = try #require(try store.contact(id: "tim-cook"))
        #expect(tim.displayName == "Timothy Cook" && tim.handles.map(\.id) == ["m"])
    }

    @Test func paysExactlyOncePerKey() throws {
        let home = TemporaryHome()
        let store = try store(home)
        guard case let .paid(record) = try store.submit(try submission(key: "a")) else { Issue.record("not paid"); return }
        #expect(record.sequence == 2)  // after the directory's signed balances
        #expect(try store.submit(try submission(key: "a")) == .alreadyPaid(record))
        #expect(throws: TenderError.self) { try store.submit(try submission(key: "a", amount: "11.00")) }
        #expect(try store.accounts()[0].balance.decimalString == "90.00")
        #expect(try store.records() == [record])
        #expect(try store.mostRecentPayee() == RecentPayee(contactID: "tim-cook", handleID: "tc-work"))
    }

    @Test func refusesWithoutFundsOrAccountAndChangesNothing() throws {
        let home = TemporaryHome()
        let store = try store(home)
        #expect(try store.submit(try submission(key: "big", amount: "100.01")) == .insufficientFunds)
        #expect(try store.submit(try submission(key: "gone", account: "closed")) == .accountMissing)
        #expect(try store.submit(try submission(key: "yen", account: "yen")) == .accountMissing)
        #expect(try store.records().isEmpty)
        #expect(try store.accounts()[0].balance.decimalString == "100.00")
        #expect(try store.mostRecentPayee() == nil)
    }

    @Test func twoConnectionsShareOneFile() throws {
        let home = TemporaryHome()
        let first = try store(home)
        let second = try Self.openStore(home.path)
        guard case let .paid(record) = try first.submit(try submission(key: "shared")) else { Issue.record("not paid"); return }
        #expect(try second.submit(try submission(key: "shared")) == .alreadyPaid(record))
        #expect(try second.accounts()[0].balance.decimalString == "90.00")
    }

    @Test func storeIsDurableWAL() throws {
        let home = TemporaryHome()
        let store = try store(home)
        _ = store
        let db = try Database(path: home.path + "/" + SQLiteStore.fileName)
        let mode = try db.statement("PRAGMA journal_mode")
        #expect(try mode.step() && mode.text(0) == "wal")
        let sync = try db.statement("PRAGMA synchronous")
        #expect(try sync.step() && sync.int64(0) == 2)  // FULL
    }

    @Test func refusesAStoreFromTheFuture() throws {
        let home = TemporaryHome()
        _ = try store(home)
        let db = try Database(path: home.path + "/" + SQLiteStore.fileName)
        try db.execute("PRAGMA user_version = 99")
        #expect(throws: TenderError.self) { try Self.openStore(home.path) }
        // Read-only too (tender verify): a later schema is refused, not misread.
        #expect(throws: TenderError.store("the store has schema version 99; this Tender knows up to \(Schema.version)")) {
            try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
        }
    }

    @Test func homeProblemsAreHomeErrors() throws {
        let home = TemporaryHome()
        let file = home.path + "/plain-file"
        let fd = open(file, O_CREAT | O_WRONLY, 0o600)
        close(fd)
        defer { unlink(file) }
        #expect(throws: TenderError.home("the home directory \(file) is not a directory")) { try Self.openStore(file) }
        #expect(throws: TenderError.self) { try Self.openStore("") }
        let nested = home.path + "/a/b"
        _ = try Self.openStore(nested)
        var info = stat()
        #expect(stat(nested, &info) == 0 && info.st_mode & 0o777 == 0o700)

    }

    @Test func concurrentSubmittersPayEachKeyOnce() async throws {
        let home = TemporaryHome()
        let store = try store(home)
        let stores = [store, try Self.openStore(home.path), try Self.openStore(home.path)]
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    for i in 0..<10 {
                        let key = "key-\(i)"  // every worker races on the same ten keys
                        _ = try? stores[worker % stores.count].submit(try self.submission(key: key, amount: "1.00"))
                    }
                }
            }
        }
        #expect(try store.records().count == 10)
        #expect(try store.accounts()[0].balance.decimalString == "90.00")
        #expect(try store.records().map(\.sequence) == Array(2...11))  // after the directory's signed balances
    }
}
