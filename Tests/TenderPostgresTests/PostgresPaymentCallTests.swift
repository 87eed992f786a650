// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
import TenderCrypto
@testable import TenderPostgres
@testable import TenderStore

/// A quiet submitter's payment on PostgreSQL is one call of `tender.pay_prepared_v4` (``PostgresSchema/payment``), in one
/// round trip with BEGIN and COMMIT: its record signed at the head the store expects, inserted by the server only when,
/// under the person's lock, that head, that enrolled key, the unpaid idempotency key and the funds are what it finds. At
/// 2467df6 it was the batch's transaction (BEGIN, the opening call, four reads, then the debit, the record and COMMIT: 9
/// statements, 2 round trips). Anything else answers why, writes nothing, and the batch's transaction pays as it did.
@Suite(.enabled(if: postgresTestURI != nil, "needs a PostgreSQL server: TENDER_TEST_POSTGRES_URI (make test-postgres sets it)"))
struct PostgresPaymentCallTests {
    private static func paid(_ outcome: SubmissionOutcome) -> PaymentRecord? {
        if case let .paid(record) = outcome { return record }
        return nil
    }

    /// A new person's store with the directory imported and one payment made, on a pool of its own.
    private static func person() throws -> (uid: UInt32, home: String, pool: PostgresPool, store: SQLiteStore) {
        let uid = PostgresFixture.person()
        let home = PostgresFixture.home()
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let store = try PostgresStore.open(pool: pool, uid: uid, home: home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        _ = try #require(paid(try store.submit(try PostgresFixture.payment("warm"))), "warm not paid")
        return (uid, home, pool, store)
    }

    /// The statements prepared on the pool's connection (the pool has one) that start with `text`.
    private static func prepared(_ db: PostgresDatabase, naming text: String) throws -> [String] {
        try db.readTransaction { () throws(TenderError) in
            try db.statement("SELECT statement FROM pg_catalog.pg_prepared_statements WHERE statement LIKE ?", [text + "%"]).rows { $0.text(0) ?? "" }
        }
    }

    @Test func aQuietPaymentIsOneCallInOneRoundTripAndKeepsOneChain() throws {
        let (_, _, pool, store) = try Self.person()
        let before = pool.roundTrips
        var records: [PaymentRecord] = []
        for index in 0..<3 {
            records.append(try #require(Self.paid(try store.submit(try PostgresFixture.payment("one-\(index)"))), "one-\(index) not paid"))
        }
        // BEGIN, the call and COMMIT in one pipeline each: 3 round trips for 3 payments (6 at 2467df6).
        #expect(pool.roundTrips - before == 3)
        #expect(records.map(\.sequence) == [records[0].sequence, records[0].sequence + 1, records[0].sequence + 2])
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "one-0", "one-1", "one-2"])
        #expect(try store.accounts()[0].balance.minorUnits == 10_000 - 4 * 100)
        #expect(try store.verify().count == 5)
        // A key asked again answers its record (the call finds it paid and writes nothing; the batch answers it).
        guard case let .alreadyPaid(again) = try store.submit(try PostgresFixture.payment("one-1")) else { Issue.record("one-1 paid twice"); return }
        #expect(again.jws == records[1].jws)
        #expect(store.preparePause.withLock { $0 } == 0)
        #expect(try store.verify().count == 5)
    }

    /// The authentication that let a payment through is audited in memory and written by the store's next write: with a
    /// quiet payment, in its one call (at 2467df6, in the batch's transaction). A refused payment's entry waits for the batch.
    @Test func anAuthenticatedPaymentsAuditEntryIsWrittenInItsOneCall() throws {
        let (_, _, pool, store) = try Self.person()
        try store.audit(user: "alice", event: .authenticated, intent: "INSendPaymentIntent", detail: "pam one-call")
        let before = pool.roundTrips
        _ = try #require(Self.paid(try store.submit(try PostgresFixture.payment("audited"))), "audited not paid")
        #expect(pool.roundTrips - before == 1)
        #expect(store.pendingAudit.withLock { $0.isEmpty })
        #expect(try store.auditEntries().filter { $0.detail == "pam one-call" }.count == 1)
        // Refused by its checks: the entry is written by the batch's transaction that answers the refusal.
        try store.audit(user: "alice", event: .authenticated, intent: "INSendPaymentIntent", detail: "pam refused")
        let money = try Money(decimal: "1000.00", currency: try Currency(code: "USD"))
        let rich = PaymentSubmission(
            idempotencyKey: "rich", fingerprint: "rich", amount: money,
            movements: [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)]) { _ in "{}" }
        #expect(try store.submit(rich) == .insufficientFunds)
        #expect(try store.auditEntries().filter { $0.detail.hasPrefix("pam ") }.map(\.detail) == ["pam one-call", "pam refused"])
        #expect(try store.verify().count == 3)
    }

    /// The paid party (v2): read under the lock and inserted only when new, so its row names the first payment to it, once.
    @Test func aPaidPartyIsRecordedOnceAtItsFirstOneCallPayment() throws {
        let (uid, _, pool, store) = try Self.person()
        func payment(_ key: String) throws -> PaymentSubmission {
            let plain = try PostgresFixture.payment(key)
            return PaymentSubmission(
                idempotencyKey: key, fingerprint: plain.fingerprint, amount: plain.amount, movements: plain.movements, payee: plain.payee,
                paidParty: "mailto:tim@example.com", makePayload: plain.makePayload)
        }
        #expect(try !store.hasPaid(party: "mailto:tim@example.com"))
        let before = pool.roundTrips
        let first = try #require(Self.paid(try store.submit(try payment("party-0"))), "party-0 not paid")
        let second = try #require(Self.paid(try store.submit(try payment("party-1"))), "party-1 not paid")
        #expect(pool.roundTrips - before == 2)
        #expect(try store.hasPaid(party: "mailto:tim@example.com"))
        let db = PostgresDatabase(pool: pool, uid: uid)
        let rows = try db.readTransaction { () throws(TenderError) in
            try db.statement("SELECT first_sequence FROM paid_parties WHERE party = ?", ["mailto:tim@example.com"]).rows { $0.int64(0) }
        }
        #expect(rows == [first.sequence])
        #expect(second.sequence == first.sequence + 1)
        #expect(try store.verify().count == 4)
    }

    @Test func theCallIsPreparedWithEachArgumentCastToTheFunctionsExactType() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let uid = PostgresFixture.person()
        let store = try PostgresStore.open(pool: pool, uid: uid, home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        for key in ["p-0", "p-1"] { _ = try #require(Self.paid(try store.submit(try PostgresFixture.payment(key)))) }
        let calls = try Self.prepared(PostgresDatabase(pool: pool, uid: uid), naming: "SELECT tender.pay_prepared_v4(")
        #expect(calls.count == 1)
        #expect(calls.first?.contains("pay_prepared_v4($1::pg_catalog.int8, $2::pg_catalog.int4, $3::pg_catalog.int4, $4::pg_catalog.text, $5::pg_catalog.bytea") == true)
        #expect(calls.first?.contains("$17::pg_catalog.text[], $18::pg_catalog.int8[], $19::pg_catalog.text[], $20::pg_catalog.text, $21::pg_catalog.bool, $22::pg_catalog.int8[]") == true)
    }

    /// The function called as an adversary holding tenderd's role would (a forged head, key, idempotency key, balance):
    /// it inserts nothing it cannot check.
    @Test func theFunctionWritesNothingWhenAnyCheckFails() throws {
        let (uid, _, pool, store) = try Self.person()
        let db = PostgresDatabase(pool: pool, uid: uid)
        let head = try #require(store.expectedHead.withLock { $0 })
        let kid = head.keyIDs[0]
        let key = try #require(head.publicKeys[kid])
        let usd = try Currency(code: "USD")
        func call(kid: String = kid, key: [UInt8] = key, previous: (Int64, String) = (head.sequence, head.hash), idempotencyKey: String = "forged",
                  delta: Int64 = -100, account: String = "checking") throws -> PreparedPaymentAnswer {
            try db.payPrepared(PreparedPayment(
                previous: previous, signerKeyID: kid, signerPublicKey: key, jws: "forged.jws.x", hash: "forged-hash", idempotencyKey: idempotencyKey,
                fingerprintDigest: Array(repeating: 7, count: 32), accountID: account, payeeContactID: nil, payeeHandleID: nil, currency: "USD",
                amountMinor: 100, movements: [BalanceMovement(accountID: account, currency: usd, delta: delta)], paidParty: nil, releasesClaim: false,
                audit: [(1, "forged", "authenticated", "pay", "forged")]))
        }
        #expect(try call(kid: "another-kid") == .unfit("key"))
        #expect(try call(key: Array(repeating: 1, count: 32)) == .unfit("key"))
        #expect(try call(previous: (head.sequence - 1, head.hash)) == .unfit("head"))
        #expect(try call(previous: (head.sequence, "another-hash")) == .unfit("head"))
        #expect(try call(idempotencyKey: "warm") == .unfit("paid before"))
        #expect(try call(delta: -1_000_000) == .unfit("checks"))
        #expect(try call(account: "missing") == .unfit("checks"))
        #expect(try store.records().map(\.idempotencyKey) == ["warm"])
        #expect(try store.accounts()[0].balance.minorUnits == 10_000 - 100)
        #expect(try store.auditEntries().filter { $0.user == "forged" }.isEmpty)
        #expect(try store.verify().count == 2)
    }

    @Test func aHeadMovedByAnotherTenderdIsAnsweredUnfitAndThePaymentIsChainedAfterIt() throws {
        let (uid, home, pool, store) = try Self.person()
        // Another tenderd (its own pool, the same key files) pays b: this store's expected head is stale.
        let other = try PostgresStore.open(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2), uid: uid, home: home)
        let b = try #require(Self.paid(try other.submit(try PostgresFixture.payment("b"))))
        let before = pool.roundTrips
        let x = try #require(Self.paid(try store.submit(try PostgresFixture.payment("x"))), "x not paid")
        // The call (1 round trip, nothing kept), then the batch's transaction (2), then its signature stored (1).
        #expect(pool.roundTrips - before == 4)
        #expect(x.sequence == b.sequence + 1)
        #expect(store.preparePause.withLock { $0 } == SQLiteStore.preparePauseSubmissions)
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "b", "x"])
        #expect(try store.verify().count == 4)
        #expect(try other.verify().count == 4)
    }

    // A function dropped under a running daemon (the call answers unsupported, the batch pays, the next open makes it
    // again): test_pg_security.test_a_dropped_payment_function_leaves_payments_paying_and_is_made_again, on a database of
    // its own (dropped here, it would send every other suite's payments through the batch meanwhile).

    /// The session running the call is killed while the call waits for the person's lock (held by another transaction):
    /// the payment is paid once (its answer lost, the batch's transaction on a new session decided under the lock), or
    /// refused whole with nothing kept (the server answered the termination); either way the key then pays once.
    @Test func aSessionKilledMidCallIsDecidedByTheBatchOnANewSessionAndPaysOnce() throws {
        let (uid, _, pool, store) = try Self.person()
        let sessions = Sessions(
            holder: PostgresDatabase(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1), uid: uid),
            killer: PostgresDatabase(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1), uid: uid))
        let holding = Mutex(false)
        let release = Mutex(false)
        let killed = Mutex<[String]>([])
        let thread = PostgresSignedInFlightTests.Thread {
            let (holder, killer) = (sessions.holder, sessions.killer)
            try? holder.writeTransaction { () throws(TenderError) in
                try holder.statement("SELECT 1").rows { $0.text(0) }.forEach { _ in }
                holding.withLock { $0 = true }
                // Until the call waits for this lock: then its backend is terminated, and the lock let go soon after.
                for _ in 0..<2_000 {
                    let waiting = try killer.readTransaction { () throws(TenderError) in
                        try killer.statement(
                            "SELECT pid::text FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND classid = ?::text::oid "
                                + "AND objid = ?::text::oid AND NOT granted", [Int64(PostgresSchema.lockNamespace), Int64(uid)]
                        ).rows { $0.text(0) ?? "" }
                    }
                    if let pid = waiting.first {
                        _ = try killer.readTransaction { () throws(TenderError) in
                            try killer.statement("SELECT pg_catalog.pg_terminate_backend(?::pg_catalog.int4)", [pid]).rows { $0.text(0) ?? "" }
                        }
                        killed.withLock { $0.append(pid) }
                        break
                    }
                    usleep(5_000)
                }
                for _ in 0..<40 where !release.withLock({ $0 }) { usleep(5_000) }
            }
        }
        while !holding.withLock({ $0 }) { usleep(1_000) }
        let submission = try PostgresFixture.payment("killed")
        let outcome = Result { () throws(TenderError) in try store.submit(submission) }
        release.withLock { $0 = true }
        thread.join()
        #expect(killed.withLock { $0 }.count == 1)
        let kept = try store.records().map(\.idempotencyKey)
        if case .success(.paid) = outcome { #expect(kept == ["warm", "killed"]) } else { #expect(kept == ["warm"], "\(outcome)") }
        // Asked again: one row under the key.
        let again = try store.submit(try PostgresFixture.payment("killed"))
        if case .success(.paid) = outcome { #expect(again != .insufficientFunds && Self.paid(again) == nil) } else { #expect(Self.paid(again) != nil) }
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "killed"])
        #expect(try store.verify().count == 3)
        print("session killed mid-call: \(outcome)")
    }

    /// The killing test's two sessions of their own, used by its thread only.
    private final class Sessions: @unchecked Sendable {
        let holder: PostgresDatabase
        let killer: PostgresDatabase
        init(holder: PostgresDatabase, killer: PostgresDatabase) {
            self.holder = holder
            self.killer = killer
        }
    }
}
