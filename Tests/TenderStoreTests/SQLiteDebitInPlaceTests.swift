// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
@testable import TenderStore

/// A single debit is checked by its own UPDATE (issue 34: one statement fewer a payment): the outcomes stay those of
/// the separate check, in the same order (paid before, then the account, then the funds), and a refusal changes nothing.
@Suite struct SQLiteDebitInPlaceTests {
    private func submission(key: String, amount: String, account: String = "checking", currency: String = "USD") throws -> PaymentSubmission {
        let money = try Money(decimal: amount, currency: try Currency(code: currency))
        return PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: "fp-\(amount)", amount: money,
            movements: [BalanceMovement(accountID: account, currency: money.currency, delta: -money.minorUnits)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in
            JSONWriter.string(.object(position.members(type: "payment") + [("key", .string(key))]))
        }
    }

    @Test func theWholeBalanceIsPaidAndOneMinorUnitMoreIsRefused() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        guard case .paid = try store.submit(try submission(key: "all", amount: "100.00")) else { Issue.record("not paid"); return }
        #expect(try store.accounts()[0].balance.minorUnits == 0)
        #expect(try store.submit(try submission(key: "cent", amount: "0.01")) == .insufficientFunds)
        #expect(try store.accounts()[0].balance.minorUnits == 0)
        #expect(try store.records().count == 1)
    }

    @Test func aKeyPaidBeforeIsAnsweredBeforeTheFundsAreChecked() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        guard case let .paid(record) = try store.submit(try submission(key: "a", amount: "60.00")) else { Issue.record("not paid"); return }
        // 40.00 left: the same payment again is answered as paid before, not refused for funds, and debits nothing.
        #expect(try store.submit(try submission(key: "a", amount: "60.00")) == .alreadyPaid(record))
        #expect(try store.accounts()[0].balance.minorUnits == 4_000)
    }

    @Test func aMissingAccountOrAnotherCurrencyIsAnAccountMissingAndChangesNothing() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openWithDirectory(home)
        #expect(try store.submit(try submission(key: "gone", amount: "1.00", account: "closed")) == .accountMissing)
        // The yen account exists, with nothing in it: the currency decides first, as the separate check did.
        #expect(try store.submit(try submission(key: "yen", amount: "1.00", account: "yen")) == .accountMissing)
        #expect(try store.submit(try submission(key: "usd-as-jpy", amount: "1", currency: "JPY")) == .accountMissing)
        #expect(try store.accounts().map(\.balance.minorUnits) == [10_000, 0])
        #expect(try store.records().isEmpty)
    }

    @Test func onlyASingleDebitWithoutABillTakesTheFusedStatement() throws {
        let home = TemporaryHome()
        let db = try Database(path: home.path + "/plain.sqlite3")
        let usd = try Currency(code: "USD")
        func plain(_ movements: [BalanceMovement]) -> PaymentSubmission {
            PaymentSubmission(idempotencyKey: "k", fingerprint: "f", amount: try! Money(decimal: "1", currency: usd), movements: movements) { _ in "{}" }
        }
        #expect(SQLiteStore.debitsInPlace(plain([BalanceMovement(accountID: "a", currency: usd, delta: -100)]), db))
        #expect(!SQLiteStore.debitsInPlace(plain([BalanceMovement(accountID: "a", currency: usd, delta: 100)]), db))
        #expect(!SQLiteStore.debitsInPlace(plain([BalanceMovement(accountID: "a", currency: usd, delta: .min)]), db))
        #expect(!SQLiteStore.debitsInPlace(
            plain([BalanceMovement(accountID: "a", currency: usd, delta: -100), BalanceMovement(accountID: "b", currency: usd, delta: 100)]), db))
    }
}
