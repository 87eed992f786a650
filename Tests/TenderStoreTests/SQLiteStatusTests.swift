// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
@testable import TenderStore

/// Later status changes: signed entries that complete or undo what a pending payment did.
@Suite struct SQLiteStatusTests {
    private let usd = try! Currency(code: "USD")
    private let day = try! LocalDate(year: 2026, month: 12, day: 1)

    private func store(_ home: TemporaryHome) throws -> SQLiteStore {
        let store = try SQLiteStoreTests.openStore(home.path)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteDomainTests.domain)))
        return store
    }

    /// A submission whose record carries what a real one does: intent, id, status and key.
    private func submission(
        _ key: String, intent: String, status: PaymentStatus, cents: Int64, movements: [BalanceMovement],
        completion: [BalanceMovement] = [], bill: PaidBill? = nil
    ) throws -> PaymentSubmission {
        PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: key, amount: try Money(minorUnits: cents, currency: usd), movements: movements, paidBill: bill,
            completionMovements: completion
        ) { position in
            JSONWriter.string(.object(position.members(type: "payment") + [
                ("id", .string("id-" + key)), ("intent", .string(intent)), ("status", .string(status.rawValue)), ("idempotencyKey", .string(key)),
            ]))
        }
    }

    private func balances(_ store: SQLiteStore) throws -> [Int64] { try store.accounts().map(\.balance.minorUnits) }

    @Test func cancelingAScheduledBillPaymentGivesTheMoneyBackAndLeavesTheBillUnpaid() throws {
        let home = TemporaryHome()
        let store = try store(home)
        _ = try store.submit(try submission(
            "bill", intent: "pay_bill", status: .pending, cents: 8_420,
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -8_420)], bill: PaidBill(id: "b1", status: .pending, on: day)))
        #expect(try balances(store) == [1_580, 500] && store.bills()[0].status == .pending)

        let entry = try store.changeStatus(idempotencyKey: "bill", to: .canceled)
        let json = try JSONParser.parse(entry.json)
        #expect(json["type"] == .string("payment_status") && json["payment"] == .number("2") && json["sequence"] == .number("3"))
        #expect(json["previousStatus"] == .string("pending") && json["status"] == .string("canceled") && json["id"] == .string("id-bill"))
        #expect(try CompactJWS(parsing: entry.jws).payload == Array(entry.json.utf8))
        #expect(try balances(store) == [10_000, 500])
        #expect(try store.bills()[0].status == .unpaid && store.bills()[0].paymentDate == nil)
        #expect(try store.changedStatuses() == ["bill": .canceled])
        #expect(try store.verify().count == 3)  // the directory's balances, the payment, the change

        // The same change again records nothing; a final status does not change.
        #expect(try store.changeStatus(idempotencyKey: "bill", to: .canceled) == entry)
        #expect(throws: TenderError.self) { try store.changeStatus(idempotencyKey: "bill", to: .completed) }
        #expect(try store.ledgerEntries().count == 3 && balances(store) == [10_000, 500])
    }

    @Test func aCompletedRequestCreditsItsAccountAndACompletedBillIsPaid() throws {
        let home = TemporaryHome()
        let store = try store(home)
        _ = try store.submit(try submission(
            "request", intent: "request_payment", status: .pending, cents: 2_000, movements: [],
            completion: [BalanceMovement(accountID: "savings", currency: usd, delta: 2_000)]))
        _ = try store.submit(try submission(
            "bill", intent: "pay_bill", status: .pending, cents: 8_420,
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -8_420)], bill: PaidBill(id: "b1", status: .pending, on: day)))
        _ = try store.changeStatus(idempotencyKey: "request", to: .completed)
        _ = try store.changeStatus(idempotencyKey: "bill", to: .completed)
        #expect(try balances(store) == [1_580, 2_500])
        #expect(try store.bills()[0].status == .completed && store.bills()[0].paymentDate == day)
        #expect(try store.changedStatuses() == ["request": .completed, "bill": .completed])
        #expect(try store.verify().count == 5)
    }

    @Test func refusedChangesChangeNothing() throws {
        let home = TemporaryHome()
        let store = try store(home)
        _ = try store.submit(try submission(
            "done", intent: "send_payment", status: .completed, cents: 100, movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -100)]))
        _ = try store.submit(try submission(
            "transfer", intent: "transfer_money", status: .pending, cents: 500,
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -500), BalanceMovement(accountID: "savings", currency: usd, delta: 500)]))
        // The savings account spent what the scheduled transfer put in: canceling cannot take it back.
        _ = try store.submit(try submission(
            "spent", intent: "send_payment", status: .completed, cents: 1_000, movements: [BalanceMovement(accountID: "savings", currency: usd, delta: -1_000)]))
        let before = try balances(store)
        #expect(throws: TenderError.wrongState("the account savings no longer holds what it would give back")) {
            try store.changeStatus(idempotencyKey: "transfer", to: .canceled)
        }
        #expect {
            try store.changeStatus(idempotencyKey: "done", to: .canceled)
        } throws: { error in
            guard case let .wrongState(message) = error as? TenderError else { return false }
            return message.contains("is completed")
        }
        #expect(try store.changeStatus(idempotencyKey: "done", to: .completed).sequence == 2)
        #expect(throws: TenderError.self) { try store.changeStatus(idempotencyKey: "nobody", to: .failed) }
        #expect(try balances(store) == before && store.ledgerEntries().count == 4 && store.changedStatuses().isEmpty)

        // A payment recorded before schema 4 kept no effects, in its record or beside it: its status cannot change.
        let old = PaymentSubmission(idempotencyKey: "old", fingerprint: "old", amount: try Money(minorUnits: 100, currency: usd), movements: []) {
            JSONWriter.string(.object($0.members(type: "payment") + [
                ("id", .string("id-old")), ("intent", .string("send_payment")), ("status", .string("pending")), ("idempotencyKey", .string("old")),
            ]))
        }
        _ = try store.submit(old)
        #expect {
            try store.changeStatus(idempotencyKey: "old", to: .failed)
        } throws: { error in
            guard case let .wrongState(message) = error as? TenderError else { return false }
            return message.contains("before Tender kept")
        }
    }

    @Test func verificationRefusesAStatusChangeThePaymentDidNotAllow() throws {
        let home = TemporaryHome()
        let store = try store(home)
        _ = try store.submit(try submission(
            "done", intent: "send_payment", status: .completed, cents: 100, movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -100)]))
        // Signed with the store's own key, so only the status rule can catch it.
        try store.write { (db) throws(TenderError) in
            try store.append(type: PaymentStatusChange.entryType, db, subject: 2, status: "canceled") { position in
                PaymentStatusChange.payload(
                    at: position, paymentSequence: 2, paymentID: "id-done", intent: "send_payment", idempotencyKey: "done", from: .pending, to: .canceled)
            }
        }
        #expect {
            _ = try store.verify()
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("record 3") && message.contains("does not allow")
        }
    }
}
