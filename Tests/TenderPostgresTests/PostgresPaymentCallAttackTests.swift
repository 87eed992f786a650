// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderPostgres
@testable import TenderStore

/// The payment function's call (``PostgresSchema/payment``, pg36) attacked from inside the daemon: what a person's other
/// sessions on the same store do while a quiet payment waits for the store's write lock.
@Suite(.enabled(if: postgresTestURI != nil, "needs a PostgreSQL server: TENDER_TEST_POSTGRES_URI (make test-postgres sets it)"))
struct PostgresPaymentCallAttackTests {
    private static func paid(_ outcome: SubmissionOutcome) -> PaymentRecord? {
        if case let .paid(record) = outcome { return record }
        return nil
    }

    /// The audit entries waiting for the store's next write go in the payment's one call. Another write of the same
    /// person (a denial's entry, a device remembered: any session of theirs may make one) holding the write lock while a
    /// quiet payment waits for it stores them first. At 8403c45 the call took them before it waited: it wrote them a
    /// second time, then forgot, unwritten, the entry kept after them (here B, the authentication of a later payment),
    /// and with nothing kept after them its forgetting trapped (tenderd down for every person). Each entry is written once.
    @Test func auditEntriesStoredByAnotherWriteWhileTheCallWaitsAreWrittenOnceAndNoneIsLost() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let store = try PostgresStore.open(pool: pool, uid: PostgresFixture.person(), home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        _ = try #require(Self.paid(try store.submit(try PostgresFixture.payment("warm"))), "warm not paid")
        try store.audit(user: "alice", event: .authenticated, intent: "INSendPaymentIntent", detail: "race A")
        let writing = Mutex(false)
        let thread = PostgresSignedInFlightTests.Thread {
            // Stores A (the write's own first step), then holds the lock while the payment below waits for it.
            _ = try? store.write { (_) throws(TenderError) -> Int in
                writing.withLock { $0 = true }
                usleep(700_000)
                // The authentication of the person's next payment, kept after A while the payment waits.
                try store.audit(user: "alice", event: .authenticated, intent: "INSendPaymentIntent", detail: "race B")
                return 0
            }
        }
        while !writing.withLock({ $0 }) { usleep(1_000) }
        let raced = try store.submit(try PostgresFixture.payment("raced"))
        thread.join()
        #expect(Self.paid(raced) != nil, "\(raced)")
        let entries = try store.auditEntries().filter { $0.detail.hasPrefix("race ") }.map(\.detail)
        #expect(entries.sorted() == ["race A", "race B"])
        #expect(store.pendingAudit.withLock { $0.isEmpty })
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "raced"])
        #expect(try store.verify().count == 3)
    }

    /// As above with nothing kept after the stored entry: at 8403c45 the call wrote it again, then forgot one entry more
    /// than were waiting, which traps (tenderd, serving every person, went down). The entry is written once.
    @Test func anAuditEntryStoredByAnotherWriteWhileTheCallWaitsIsNotForgottenTwice() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let store = try PostgresStore.open(pool: pool, uid: PostgresFixture.person(), home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        _ = try #require(Self.paid(try store.submit(try PostgresFixture.payment("warm"))), "warm not paid")
        try store.audit(user: "alice", event: .authenticated, intent: "INSendPaymentIntent", detail: "alone A")
        let writing = Mutex(false)
        let thread = PostgresSignedInFlightTests.Thread {
            _ = try? store.write { (_) throws(TenderError) -> Int in
                writing.withLock { $0 = true }
                usleep(500_000)
                return 0
            }
        }
        while !writing.withLock({ $0 }) { usleep(1_000) }
        let raced = try store.submit(try PostgresFixture.payment("alone"))
        thread.join()
        #expect(Self.paid(raced) != nil, "\(raced)")
        #expect(try store.auditEntries().filter { $0.detail == "alone A" }.count == 1)
        #expect(try store.verify().count == 3)
    }

    /// The call's arrays travel as array literals (``PostgresDatabase/arrayLiteral(_:)``): an account id, an intent or an audit
    /// detail holding what such a literal gives meaning to (quotes, backslashes, commas, braces, NULL, spaces), beside
    /// characters of several UTF-8 bytes (the literal is built byte by byte), stays one element, as given: the payment moves
    /// that account's balance alone, in one call, and its entry reads back whole.
    @Test func textThatMeansSomethingInAnArrayLiteralStaysOneElementAsGiven() throws {
        let odd = #"c"h\e,{ck} NULL é"€\😀 "#
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let store = try PostgresStore.open(pool: pool, uid: PostgresFixture.person(), home: PostgresFixture.home())
        let directory = PostgresFixture.directory.replacing(#""accounts": ["#, with: #""accounts": [{"id": "#
            + JSONWriter.string(.string(odd)) + #", "nickname": "Odd", "type": "checking", "balance": {"amount": "5.00", "currency": "USD"}}, "#)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(directory)))
        _ = try #require(Self.paid(try store.submit(try PostgresFixture.payment("warm"))), "warm not paid")
        try store.audit(user: "alice", event: .authenticated, intent: odd, detail: odd + #"\"}"#)
        let money = try Money(decimal: "2.00", currency: try Currency(code: "USD"))
        let movements = [BalanceMovement(accountID: odd, currency: money.currency, delta: -money.minorUnits)]
        let columns: JSONValue = .object([
            ("idempotencyKey", .string("odd")), ("fingerprint", .string("fp")), ("account", .string(odd)), ("payeeContact", .string("tim-cook")),
            ("payeeHandle", .string("tc-work")), ("currency", .string("USD")), ("amountMinor", .number(String(money.minorUnits))),
            ("effects", PaymentEffects(movements: movements, onCompletion: [], bill: nil).json),
        ])
        let submission = PaymentSubmission(
            idempotencyKey: "odd", fingerprint: "fp", amount: money, movements: movements, payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("ledger", columns)])) }
        let before = pool.roundTrips
        _ = try #require(Self.paid(try store.submit(submission)), "odd not paid")
        #expect(pool.roundTrips - before == 1)
        let balances = Dictionary(uniqueKeysWithValues: try store.accounts().map { ($0.id, $0.balance.minorUnits) })
        #expect(balances == [odd: 300, "checking": 9_900])
        #expect(try store.auditEntries().filter { $0.intent == odd }.map(\.detail) == [odd + #"\"}"#])
        #expect(try store.verify().count == 3)
    }

    /// The literal itself: each element quoted, only a backslash or a double quote escaped, every other byte as given (a
    /// character of several UTF-8 bytes holds neither), an empty element kept, no element an empty array.
    @Test func anArrayLiteralQuotesEachElementAndEscapesOnlyQuotesAndBackslashes() {
        #expect(PostgresDatabase.arrayLiteral([]) == "{}")
        #expect(PostgresDatabase.arrayLiteral([""]) == #"{""}"#)
        #expect(PostgresDatabase.arrayLiteral([#"a"b"#, #"c\d"#, "é€😀", "{x,y}", "NULL"]) == #"{"a\"b","c\\d","é€😀","{x,y}","NULL"}"#)
    }
}
