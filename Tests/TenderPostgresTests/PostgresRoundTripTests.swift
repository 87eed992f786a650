// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
import TenderCore
import TenderStore

@testable import TenderPostgres

/// The PostgreSQL store's round trips on a real server: statements run for their effect only travel with the
/// transaction's next read or its COMMIT (``PostgresStatement/run()``), so a payment waits for 6 answers where it waited
/// for 9 (counted in the server's statement log at 9ebedc6: its opening with the first read, 3 more reads, the debit, the
/// insert and COMMIT; then the signature's opening with its update, and COMMIT); and a write queued that fails still fails
/// its transaction, with nothing of it kept. `make test-postgres` runs it on its throwaway cluster
/// (swift_on_postgres.py, TENDER_TEST_POSTGRES_URI); without that variable the suite is skipped.
@Suite(.enabled(if: roundTripTestURI != nil, "needs a PostgreSQL server: TENDER_TEST_POSTGRES_URI (make test-postgres sets it)"))
struct PostgresRoundTripTests {
    static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true}]}
        """

    private static func person() -> UInt32 { UInt32.random(in: 3_000_000_000...3_900_000_000) }

    private static func home() -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/tender-pg-trips-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) } + "/home"
    }

    private static func pool() throws -> PostgresPool { PostgresPool(location: try PostgresLocation(roundTripTestURI!), size: 2) }

    /// A person's view with the schema made (and the opening function).
    private static func database(_ pool: PostgresPool) throws -> PostgresDatabase {
        let db = PostgresDatabase(pool: pool, uid: person())
        try PostgresSchema.migrate(db)
        return db
    }

    @Test func aPaymentWaitsForSixRoundTrips() throws {
        let pool = try Self.pool()
        let store = try PostgresStore.open(pool: pool, uid: Self.person(), home: Self.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory)))
        // The first payment prepares the statements on the connections.
        for key in ["warm-0", "warm-1"] { guard case .paid = try store.submit(try dollarPayment(key)) else { Issue.record("\(key) not paid"); return } }
        let before = pool.roundTrips
        for index in 0..<4 {
            guard case .paid = try store.submit(try dollarPayment("trip-\(index)")) else { Issue.record("trip-\(index) not paid"); return }
        }
        // Sequential payments: the payment's transaction (its opening with the first of 4 reads, 3 more, then the debit, the
        // record and COMMIT together) and the signature's (opening, update, COMMIT together).
        #expect(pool.roundTrips - before == 4 * 6)
        #expect(try store.verify().count == 7)
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
    private func values(_ db: PostgresDatabase) throws -> [String] {
        try db.readTransaction { () throws(TenderError) in
            try db.statement("SELECT key, value FROM settings ORDER BY key").rows { "\($0.text(0) ?? "")=\($0.text(1) ?? "")" }
        }
    }
}

/// The test database, from the environment (nil: the suite is skipped).
private let roundTripTestURI = getenv("TENDER_TEST_POSTGRES_URI").map { String(cString: $0) }
