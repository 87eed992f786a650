// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
import TenderCore
import TenderStore

@testable import TenderPostgres

/// The PostgreSQL store's round trips on a real server: statements run for their effect only travel with the
/// transaction's next read or its COMMIT (``PostgresStatement/run()``), and the reads a payment needs are made ahead
/// (``StoreDatabase/ahead(_:_:)``) and travel together, so a payment waits for 2 answers, as the raw yardstick does, where it
/// waited for 6 at e0e6d68 (its opening with the first read, 3 more reads, then the debit, the insert and COMMIT; and a
/// signature transaction) and 9 at 9ebedc6; a write queued or a read made ahead that fails still fails its transaction,
/// with nothing of it kept and nothing left on the connection. `make test-postgres` runs it on its throwaway cluster
/// (swift_on_postgres.py, TENDER_TEST_POSTGRES_URI); without that variable the suite is skipped.
@Suite(.enabled(if: postgresTestURI != nil, "needs a PostgreSQL server: TENDER_TEST_POSTGRES_URI (make test-postgres sets it)"))
struct PostgresRoundTripTests {
    private static func pool() throws -> PostgresPool { PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2) }

    /// A person's view with the schema made (and the opening function).
    private static func database(_ pool: PostgresPool) throws -> PostgresDatabase {
        let db = PostgresDatabase(pool: pool, uid: PostgresFixture.person())
        try PostgresSchema.migrate(db)
        return db
    }

    @Test func aQuietPaymentWaitsForOneRoundTrip() throws {
        let pool = try Self.pool()
        let store = try PostgresStore.open(pool: pool, uid: PostgresFixture.person(), home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        // The first payment prepares the statements on the connections.
        for key in ["warm-0", "warm-1"] { guard case .paid = try store.submit(try PostgresFixture.payment(key)) else { Issue.record("\(key) not paid"); return } }
        let before = pool.roundTrips
        for index in 0..<4 {
            guard case .paid = try store.submit(try PostgresFixture.payment("trip-\(index)")) else { Issue.record("trip-\(index) not paid"); return }
        }
        // Sequential payments, as the raw yardstick's: the opening with every read (keys, head, idempotency key, balance: made
        // ahead, AheadRead), then the debit, the record and COMMIT together. The record was signed before the write lock
        // (PreparedRecord), so no signature transaction follows.
        // One quiet payment is one call of the payment function, with BEGIN and COMMIT, in one round trip (PostgresPaymentCallTests).
        #expect(pool.roundTrips - before == 4 * 1)
        #expect(try store.verify().count == 7)
        // A payment asked again finds the first, and changes nothing: the call finds the key paid (1 round trip), then the
        // batch's transaction answers the record (2).
        let again = pool.roundTrips
        guard case .alreadyPaid = try store.submit(try PostgresFixture.payment("trip-0")) else { Issue.record("trip-0 paid twice"); return }
        #expect(pool.roundTrips - again <= 3)
        #expect(try store.verify().count == 7)
    }

    @Test func aBillPaymentWaitsForTwoRoundTripsAndATransferOfTwoAccountsForOne() throws {
        let pool = try Self.pool()
        let store = try PostgresStore.open(pool: pool, uid: PostgresFixture.person(), home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.billsDirectory)))
        for key in ["warm-0", "warm-1"] { guard case .paid = try store.submit(try PostgresFixture.payment(key)) else { Issue.record("\(key) not paid"); return } }
        let usd = try Currency(code: "USD")
        let day = try LocalDate(year: 2026, month: 11, day: 22)
        func bill(_ key: String) throws -> PaymentSubmission {
            PaymentSubmission(
                idempotencyKey: key, fingerprint: key, amount: try Money(decimal: "84.20", currency: usd),
                movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -8_420)], paidBill: PaidBill(id: "b1", status: .completed, on: day)
            ) { _ in "{}" }
        }
        var before = pool.roundTrips
        // The bill is read by the payment's check, made ahead with the other reads, and marked from that read.
        guard case .paid = try store.submit(try bill("bill")) else { Issue.record("bill not paid"); return }
        #expect(pool.roundTrips - before == 2)
        #expect(try store.bills()[0].status == .completed && store.bills()[0].paymentDate == day)
        // Another key for the same bill finds it paid (from the read made ahead), and pays nothing.
        #expect(try store.submit(try bill("bill-again")) == .billSettled)
        // Two accounts: both balances checked by the payment function, both moved, in its one call.
        let transfer = PaymentSubmission(
            idempotencyKey: "t", fingerprint: "t", amount: try Money(decimal: "10", currency: usd),
            movements: [
                BalanceMovement(accountID: "checking", currency: usd, delta: -1_050), BalanceMovement(accountID: "savings", currency: usd, delta: 1_000),
            ]) { _ in "{}" }
        before = pool.roundTrips
        guard case .paid = try store.submit(transfer) else { Issue.record("transfer not paid"); return }
        #expect(pool.roundTrips - before == 1)
        #expect(try store.accounts().map(\.balance.minorUnits) == [10_000 - 200 - 8_420 - 1_050, 1_500])
        // The second account short of funds: refused, nothing moved.
        let tooMuch = PaymentSubmission(
            idempotencyKey: "t2", fingerprint: "t2", amount: try Money(decimal: "100", currency: usd),
            movements: [
                BalanceMovement(accountID: "checking", currency: usd, delta: 100), BalanceMovement(accountID: "savings", currency: usd, delta: -10_000),
            ]) { _ in "{}" }
        #expect(try store.submit(tooMuch) == .insufficientFunds)
        #expect(try store.accounts().map(\.balance.minorUnits) == [10_000 - 200 - 8_420 - 1_050, 1_500])
    }

    static let billsDirectory = """
        {"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true},
                      {"id": "savings", "type": "savings", "balance": {"amount": "5.00", "currency": "USD"}}],
         "billPayees": [{"id": "ec", "organizationName": "Electric Company", "nickname": "Main", "accountNumber": "A1"}],
         "bills": [{"id": "b1", "billPayee": "ec", "type": "electricity", "amountDue": {"amount": "84.20", "currency": "USD"},
                    "dueDate": "2026-11-30"}]}
        """

    @Test func readsMadeAheadTravelTogetherEachWithItsOwnAnswer() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        try db.writeTransaction { () throws(TenderError) in
            for (key, value) in [("a", "1"), ("b", "2"), ("c", "3")] { try db.statement(insert, [key, value]).run() }
        }
        let read = "SELECT value FROM settings WHERE key = ?"
        let before = pool.roundTrips
        let answers = try db.writeTransaction { () throws(TenderError) -> [String] in
            try db.statement(insert, ["d", "4"]).run()
            let reads = try ["c", "a", "d", "none", "b"].map { (key) throws(TenderError) in try db.ahead(read, [key]) }
            var out: [String] = []
            for ahead in reads {
                let row = try ahead.statement()
                out.append(try row.step() ? row.text(0) ?? "NULL" : "-")
                #expect(try !row.step())
            }
            // A write after them goes with COMMIT.
            try db.statement(insert, ["e", "5"]).run()
            return out
        }
        // The opening, the queued write and the five reads in one round trip; the last write and COMMIT in a second. The
        // write queued before the reads is seen by them ("d").
        #expect(answers == ["3", "1", "4", "-", "2"])
        #expect(pool.roundTrips - before == 2)
        #expect(try values(db) == ["a=1", "b=2", "c=3", "d=4", "e=5"])
    }

    @Test func aReadMadeAheadThatFailsFailsItsTransactionAndLeavesNothingOnTheConnection() throws {
        // One connection: the next transaction runs on the one whose reads failed.
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        for failing in 0..<3 {
            #expect(throws: TenderError.self) {
                try db.writeTransaction { () throws(TenderError) in
                    try db.statement(insert, ["x\(failing)", "1"]).run()
                    // Three reads, one of them dividing by zero on the server; whichever is stepped first throws its round trip's error.
                    let reads = try (0..<3).map { (index) throws(TenderError) in
                        try db.ahead(index == failing ? "SELECT 1 / (SELECT count(*) FROM settings WHERE key = 'none')" : "SELECT ?", [String(index)])
                    }
                    for ahead in reads { _ = try ahead.statement().step() }
                    Issue.record("the reads answered although one failed")
                }
            }
            // Stepped after the failure, by a body that went on: still the failure, and nothing kept.
            #expect(throws: TenderError.self) {
                try db.writeTransaction { () throws(TenderError) in
                    try db.statement(insert, ["y\(failing)", "1"]).run()
                    let bad = try db.ahead("SELECT 1 / (SELECT count(*) FROM settings WHERE key = 'none')", [])
                    let good = try db.ahead("SELECT ?", ["7"])
                    do { _ = try bad.statement().step() } catch {}
                    _ = try good.statement().step()
                    Issue.record("a read after the failed one answered")
                }
            }
        }
        #expect(try values(db) == [])
        // The connection's next transaction gets its own answers, none left over from the failed ones.
        let answer = try db.writeTransaction { () throws(TenderError) -> String? in
            let row = try db.ahead("SELECT ?", ["mine"]).statement()
            return try row.step() ? row.text(0) : nil
        }
        #expect(answer == "mine")
    }

    /// Reads sent ahead (``StoreDatabase/sendAhead()``: the round trip leaves, its answers are read later) answer as if
    /// waited for at once, in the same round trips; a failure among them fails the transaction; a body that throws before
    /// reading them, or a connection asked to send nothing more, leaves nothing on the connection for its next transaction.
    @Test func readsSentAheadAreAnsweredLaterAndLeaveNothingBehind() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        let read = "SELECT value FROM settings WHERE key = ?"
        try db.writeTransaction { () throws(TenderError) in try db.statement(insert, ["a", "1"]).run() }
        var before = pool.roundTrips
        let answers = try db.writeTransaction { () throws(TenderError) -> [String] in
            try db.statement(insert, ["b", "2"]).run()
            let reads = try ["b", "a", "none"].map { (key) throws(TenderError) in try db.ahead(read, [key]) }
            try db.sendAhead()
            // Nothing more to send: no round trip of its own.
            try db.sendAhead()
            usleep(20_000)
            var out: [String] = []
            for ahead in reads {
                let row = try ahead.statement()
                out.append(try row.step() ? row.text(0) ?? "NULL" : "-")
            }
            try db.statement(insert, ["c", "3"]).run()
            return out
        }
        #expect(answers == ["2", "1", "-"])
        #expect(pool.roundTrips - before == 2)
        // A failing read sent ahead: the transaction fails, whichever read is stepped first, and nothing is kept.
        #expect(throws: TenderError.self) {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement(insert, ["d", "4"]).run()
                let good = try db.ahead(read, ["a"])
                _ = try db.ahead("SELECT 1 / (SELECT count(*) FROM settings WHERE key = 'none')", [])
                try db.sendAhead()
                _ = try good.statement().step()
                Issue.record("a read sent with a failing one answered")
            }
        }
        // A body that throws with its round trip in flight, unread: rolled back, and the answers are not left for the next.
        #expect(throws: TenderError.notFound("gone")) {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement(insert, ["e", "5"]).run()
                _ = try db.ahead(read, ["a"])
                try db.sendAhead()
                throw .notFound("gone")
            }
        }
        before = pool.roundTrips
        let mine = try db.writeTransaction { () throws(TenderError) -> String? in
            let row = try db.ahead("SELECT ?", ["mine"])
            try db.sendAhead()
            let statement = try row.statement()
            return try statement.step() ? statement.text(0) : nil
        }
        #expect(mine == "mine")
        #expect(pool.roundTrips - before == 2)
        #expect(try values(db) == ["a=1", "b=2", "c=3"])
    }

    /// The opening function's call is prepared once per connection (in its first transaction's round trip) and bound in
    /// every later one, as the store's statements are: the server parses and plans it once, not in every transaction (at
    /// 4feb634 it was text with literals, parsed anew each time); and still no extra round trip.
    @Test func theOpeningCallIsPreparedOncePerConnection() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let prepared = "SELECT statement FROM pg_catalog.pg_prepared_statements WHERE statement LIKE 'SELECT tender.open_person_v2(%'"
        _ = try db.readTransaction { () throws(TenderError) in try db.statement("SELECT 1").rows { $0.text(0) } }
        let before = pool.roundTrips
        for _ in 0..<3 {
            let calls = try db.writeTransaction { () throws(TenderError) -> [String] in
                try db.statement(prepared).rows { $0.text(0) ?? "" }
            }
            #expect(calls.count == 1)
            #expect(calls.first?.contains("open_person_v2($1::pg_catalog.int8, $2::pg_catalog.bool, $3::pg_catalog.int4, $4::pg_catalog.int4)") == true)
        }
        // Each transaction: its opening with its one read, then COMMIT.
        #expect(pool.roundTrips - before == 3 * 2)
    }

    @Test func aTransactionOfWritesOnlyIsOneRoundTripAndKeepsItsRows() throws {
        let pool = try Self.pool()
        let db = try Self.database(pool)
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        try db.writeTransaction { () throws(TenderError) in try db.statement(insert, ["warm", "1"]).run() }
        let before = pool.roundTrips
        try db.writeTransaction { () throws(TenderError) in
            try db.statement(insert, ["a", "1"]).run()
            try db.statement(insert, ["b", "2"]).run()
        }
        #expect(pool.roundTrips - before == 1)
        #expect(try values(db) == ["a=1", "b=2", "warm=1"])
    }

    @Test func aQueuedWriteThatFailsFailsItsTransactionAndKeepsNothing() throws {
        let pool = try Self.pool()
        let db = try Self.database(pool)
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        // The second insert breaks the primary key: the transaction fails at COMMIT, the first insert is not kept.
        #expect(throws: TenderError.self) {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement(insert, ["c", "1"]).run()
                try db.statement(insert, ["c", "2"]).run()
            }
        }
        #expect(try values(db) == [])
        // Failing at the next read instead: the read throws the write's error.
        #expect(throws: TenderError.self) {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement(insert, ["d", "1"]).run()
                try db.statement(insert, ["d", "2"]).run()
                _ = try db.statement("SELECT count(*) FROM settings").step()
                Issue.record("the read after a failed write answered")
            }
        }
        // A count read after it: the transaction throws the server's error, not what the store concluded from a count of 0.
        do {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement(insert, ["e", "1"]).run()
                try db.statement(insert, ["e", "2"]).run()
                guard db.changes > 0 else { throw .notFound("no row") }
            }
            Issue.record("a failed write was committed")
        } catch {
            guard case let .store(message) = error else { Issue.record("not the server's error: \(error)"); return }
            #expect(message.contains("23505"))
        }
        #expect(try values(db) == [])
        // The connection serves the next transaction, whose count is its own.
        try db.writeTransaction { () throws(TenderError) in
            try db.statement(insert, ["f", "1"]).run()
            try db.statement("UPDATE settings SET value = ? WHERE key = ?", ["2", "f"]).run()
            guard db.changes == 1 else { throw .internal("the update's count is \(db.changes)") }
        }
        #expect(try values(db) == ["f=2"])
    }

    @Test func aTransactionWhoseStatementFailedIsNeverReportedCommitted() throws {
        let db = try Self.database(try Self.pool())
        // A body that goes on after the server failed one of its statements: PostgreSQL answers its COMMIT with the tag
        // ROLLBACK, not an error; the transaction must throw, not report success with nothing kept.
        #expect(throws: TenderError.self) {
            try db.writeTransaction { () throws(TenderError) in
                try db.statement("INSERT INTO settings (key, value) VALUES (?, ?)", ["g", "1"]).run()
                do { _ = try db.statement("SELECT 1 / (SELECT count(*) FROM settings WHERE key = 'none')").step() } catch {}
            }
        }
        #expect(try values(db) == [])
    }

    /// The person's settings as `key=value`, in key order.
    /// The arguments go to the server as given, from one buffer of their bytes (``PostgresStatement``): NULL stays NULL,
    /// empty text and empty bytes stay empty (not NULL), bytes holding 0 keep it, integers and text whole; text holding a
    /// NUL character is refused, wherever it stands among the arguments, and nothing is sent.
    /// tenderd's connections speak UTF-8 whatever the URI, PGCLIENTENCODING or the role's or database's default says (at
    /// 2467df6 a URI's `client_encoding=LATIN1` was taken: the server converted text on the way, and refused what LATIN1 lacks).
    @Test func theClientEncodingIsUTF8WhateverTheURISays() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI! + "&client_encoding=LATIN1"), size: 1)
        let db = try Self.database(pool)
        let text = "Zoë pays €5 ✓"
        let answer = try db.readTransaction { () throws(TenderError) in
            try db.statement("SELECT pg_catalog.current_setting('client_encoding'), ?::text", [text]).rows { [$0.text(0) ?? "", $0.text(1) ?? ""] }
        }
        #expect(answer == [["UTF8", text]])
    }

    @Test func argumentsReachTheServerAsGiven() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let sql = """
            SELECT ?::text IS NULL, ?::text IS NULL, length(?::text), ?::bigint, octet_length(?::bytea), ?::bytea IS NULL,
                   encode(?::bytea, 'hex'), ?::text, ?::bigint, ?::text IS NULL
            """
        let none: String? = nil
        let arguments: [(any StoreBindable)?] = [
            none, "", "", Int64.min, [UInt8](), [UInt8](), [0, 1, 0, 255] as [UInt8], "é😀 ü", 7, nil,
        ]
        let row = try db.readTransaction { () throws(TenderError) -> [String] in
            let statement = try db.statement(sql, arguments)
            #expect(try statement.step())
            return (0..<10).map { statement.text(Int32($0)) ?? "NULL" }
        }
        #expect(row == ["t", "f", "0", "-9223372036854775808", "0", "f", "000100ff", "é😀 ü", "7", "t"])
        // Arguments whose bytes are all empty: none is taken for NULL.
        let empty = try db.readTransaction { () throws(TenderError) -> [String] in
            let statement = try db.statement("SELECT ?::bytea IS NULL, octet_length(?::bytea), ?::text IS NULL", [[UInt8](), [UInt8](), ""])
            #expect(try statement.step())
            return (0..<3).map { statement.text(Int32($0)) ?? "NULL" }
        }
        #expect(empty == ["f", "0", "f"])
        let before = pool.roundTrips
        for position in 0..<3 {
            var withNUL: [(any StoreBindable)?] = ["a", Int64(1), [UInt8]([0])]
            withNUL.insert("b\u{0}c", at: position)
            #expect(throws: TenderError.invalidArgument("text holding a NUL character cannot be stored")) {
                try db.readTransaction { () throws(TenderError) in _ = try db.statement("SELECT ?::text, ?::text, ?::text, ?::bytea", withNUL) }
            }
        }
        #expect(pool.roundTrips == before)
    }

    /// Adversarial review (adv-pg): the server ends the connection's session (a restart, an administrator's
    /// pg_terminate_backend) under a transaction's first round trip sent ahead (``StoreDatabase/sendAhead()``), and the
    /// transaction queues a write before it reads that round trip's answers. The round trip is sent again on a new session
    /// (it changed nothing); the write queued meanwhile must go too, or the transaction fail: never a COMMIT answered
    /// without it (a payment acknowledged and not kept).
    @Test func aWriteQueuedWhileTheFirstRoundTripIsInFlightSurvivesItsResendOnANewSession() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1)
        let db = try Self.database(pool)
        let killer = try Self.database(PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1))
        let insert = "INSERT INTO settings (key, value) VALUES (?, ?)"
        let read = "SELECT value FROM settings WHERE key = ?"
        try db.writeTransaction { () throws(TenderError) in try db.statement(insert, ["a", "1"]).run() }
        let pid = try db.readTransaction { () throws(TenderError) in try db.statement("SELECT pg_catalog.pg_backend_pid()").rows { $0.text(0) ?? "" } }.first ?? ""
        var committed = false
        do {
            let answer = try db.writeTransaction { () throws(TenderError) -> String? in
                let row = try db.ahead(read, ["a"])
                // The session ends now, after the transaction began (its check of the idle connection passed).
                _ = try killer.readTransaction { () throws(TenderError) in
                    try killer.statement("SELECT pg_catalog.pg_terminate_backend(?::pg_catalog.int4)", [pid]).rows { $0.text(0) ?? "" }
                }
                usleep(200_000)
                try db.sendAhead()
                try db.statement(insert, ["b", "2"]).run()
                let statement = try row.statement()
                return try statement.step() ? statement.text(0) : nil
            }
            committed = true
            #expect(answer == "1")
        } catch {
            // Refused whole is acceptable; nothing of it may be kept.
        }
        let kept = try values(db)
        #expect(kept == (committed ? ["a=1", "b=2"] : ["a=1"]), "committed: \(committed)")
    }

    private func values(_ db: PostgresDatabase) throws -> [String] {
        try db.readTransaction { () throws(TenderError) in
            try db.statement("SELECT key, value FROM settings ORDER BY key").rows { "\($0.text(0) ?? "")=\($0.text(1) ?? "")" }
        }
    }
}

