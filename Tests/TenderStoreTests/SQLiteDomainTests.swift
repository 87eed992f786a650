// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
@testable import TenderStore

@Suite struct SQLiteDomainTests {
    static let domain = """
        {"accounts": [{"id": "checking", "nickname": "Checking", "organizationName": "Simple", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true, "points": 12},
                      {"id": "savings", "type": "savings", "balance": {"amount": "5.00", "currency": "USD"}, "miles": 0}],
         "billPayees": [{"id": "ec", "organizationName": "Electric Company", "nickname": "Main", "accountNumber": "A1"}],
         "bills": [{"id": "b1", "billPayee": "ec", "type": "electricity", "amountDue": {"amount": "84.20", "currency": "USD"},
                    "minimumDue": {"amount": "25.00", "currency": "USD"}, "dueDate": "2026-11-30"}]}
        """

    @Test func billsPayeesAndAccountDetailsRoundTrip() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let document = try DirectoryDocument(json: try JSONParser.parse(Self.domain))
        try store.importDirectory(document)
        let stored = try store.directory()
        #expect(stored.accounts == document.accounts)
        #expect(stored.accounts[1].type == .saving && stored.accounts[0].points == 12)
        #expect(stored.billPayees == document.billPayees)
        #expect(stored.bills == document.bills)
        #expect(stored.bills[0].status == .unpaid)
    }

    @Test func aBillWhosePayeeIsUnknownChangesNothing() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let orphan = try DirectoryDocument(json: try JSONParser.parse(
            #"{"contacts": [{"id": "x", "displayName": "X"}], "bills": [{"id": "b", "billPayee": "nobody", "amountDue": {"amount": "1", "currency": "USD"}, "dueDate": "2026-01-01"}]}"#))
        #expect(throws: TenderError.self) { try store.importDirectory(orphan) }
        #expect(try store.contacts().isEmpty)
    }

    @Test func removalIsAllOrNothingAndTakesTheBills() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.domain)))
        #expect(throws: TenderError.notFound("accounts has no \"ghost\"")) {
            try store.removeFromDirectory(DirectoryRemoval(accounts: ["savings", "ghost"]))
        }
        #expect(try store.accounts().count == 2)
        try store.removeFromDirectory(DirectoryRemoval(billPayees: ["ec"]))
        #expect(try store.billPayees().isEmpty && store.bills().isEmpty)
    }

    @Test func vocabularyIsReplacedAsAWholeAndSignedInIsShared() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        #expect(try store.vocabulary(.accountNickname).items.isEmpty)
        let first = UserVocabulary(kind: .accountNickname, items: [
            VocabularyItem(id: "a", phrase: "NestEgg", pronunciation: "nest egg", alternatives: []),
            VocabularyItem(id: "b", phrase: "Fun Money", pronunciation: nil, alternatives: ["play money"]),
        ])
        try store.setVocabulary(first)
        #expect(try store.vocabulary(.accountNickname) == first)
        let second = UserVocabulary(kind: .accountNickname, items: [VocabularyItem(id: "c", phrase: "Rainy Day", pronunciation: nil, alternatives: [])])
        try store.setVocabulary(second)
        #expect(try store.vocabulary(.accountNickname) == second)
        #expect(try store.vocabulary(.contactName).items.isEmpty)

        #expect(try store.isSignedIn())
        try store.setSignedIn(false)
        let other = try SQLiteStoreTests.openStore(home.path)  // another process's view of the same home
        #expect(try !other.isSignedIn())
        try other.setSignedIn(true)
        #expect(try store.isSignedIn())
    }

    @Test func aPaymentMarksItsBillPaidAndATransferMovesBothBalances() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.domain)))
        let usd = try Currency(code: "USD")
        let amount = try Money(decimal: "84.20", currency: usd)
        let day = try LocalDate(year: 2026, month: 11, day: 22)
        _ = try store.submit(PaymentSubmission(
            idempotencyKey: "bill", fingerprint: "f1", amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -8_420)], paidBill: PaidBill(id: "b1", status: .completed, on: day)
        ) { _ in "{}" })
        #expect(try store.bills()[0].status == .completed && store.bills()[0].paymentDate == day)
        let transfer = PaymentSubmission(
            idempotencyKey: "t", fingerprint: "f2", amount: try Money(decimal: "10", currency: usd),
            movements: [
                BalanceMovement(accountID: "checking", currency: usd, delta: -1_050), BalanceMovement(accountID: "savings", currency: usd, delta: 1_000),
            ]) { _ in "{}" }
        guard case .paid = try store.submit(transfer) else { Issue.record("transfer not paid"); return }
        #expect(try store.accounts().map(\.balance.minorUnits) == [10_000 - 8_420 - 1_050, 1_500])
        let tooMuch = PaymentSubmission(
            idempotencyKey: "t2", fingerprint: "f3", amount: try Money(decimal: "100", currency: usd),
            movements: [BalanceMovement(accountID: "savings", currency: usd, delta: -10_000)]) { _ in "{}" }
        #expect(try store.submit(tooMuch) == .insufficientFunds)
        let elsewhere = PaymentSubmission(
            idempotencyKey: "t3", fingerprint: "f4", amount: try Money(decimal: "1", currency: usd),
            movements: [BalanceMovement(accountID: "gone", currency: usd, delta: 100)]) { _ in "{}" }
        #expect(try store.submit(elsewhere) == .accountMissing)
    }
}

@Suite struct SQLiteShortcutTests {
    @Test func aPhraseWithTheAppsNameIsTheSameShortcutAndAPayeeGoesWithItsBills() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let first = try Shortcut(phrase: "pay rent", intent: try JSONParser.parse(#"{"intent":"pay_bill","billType":"rent"}"#))
        let second = try Shortcut(phrase: "Pay rent with Tender", intent: try JSONParser.parse(#"{"intent":"search_for_bills","billType":"rent"}"#))
        try store.addShortcut(first)
        try store.addShortcut(second)
        #expect(try store.shortcuts() == [second])
        try store.removeShortcut(phrase: "PAY RENT")
        #expect(try store.shortcuts().isEmpty)

        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteDomainTests.domain)))
        try store.removeFromDirectory(DirectoryRemoval(billPayees: ["ec"], bills: ["b1"]))
        #expect(try store.billPayees().isEmpty && store.bills().isEmpty)
    }
}

@Suite struct SchemaMigrationTests {
    @Test func aVersionOneStoreIsMigratedKeepingItsAccounts() throws {
        let home = TemporaryHome()
        let path = home.path + "/" + SQLiteStore.fileName
        do {
            let old = try Database(path: path)
            try old.execute(Schema.migrations[0])
            try old.execute(
                "INSERT INTO accounts (id, nickname, kind, currency, balance_minor, is_default, position) VALUES ('s', NULL, 'savings', 'USD', 500, 0, 1)")
            try old.execute("PRAGMA user_version = 1")
        }
        let store = try SQLiteStoreTests.openStore(home.path)
        let accounts = try store.accounts()
        #expect(accounts.count == 1 && accounts[0].type == .saving && accounts[0].balance.minorUnits == 500)
        #expect(try store.billPayees().isEmpty)
    }
}
