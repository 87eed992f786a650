// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
internal import Glibc
import TenderCore

/// The raw ceiling of the PostgreSQL store's bench (`tenderd --bench`): the same kind of write transaction as a payment,
/// straight through libpq on the same server, with nothing of Tender's around it: BEGIN and the person's advisory lock
/// (one round trip, as the store opens its transactions), an insert of a ledger-sized row, an update of a balance,
/// COMMIT, each a prepared statement; one connection per thread. Its tables live in a schema of its own,
/// `tender_bench`, made for the run (an error when it exists) and dropped at its end.
public enum PostgresRawLoop {
    /// Transactions a second of `threads` threads running `total` transactions in all, each thread for person
    /// `person(thread)`. Throws ``TenderError/store(_:)`` or ``TenderError/storeBusy(_:)`` as the store would.
    public static func transactionsPerSecond(
        location: PostgresLocation, threads: Int, total: Int, person: @escaping @Sendable (Int) -> Int64
    ) throws(TenderError) -> Double {
        let setup = try connection(location)
        defer { PQfinish(setup) }
        try run(setup, "SET client_min_messages = warning; CREATE SCHEMA tender_bench; "
            + "CREATE TABLE tender_bench.raw (person bigint, sequence bigint, jws text, hash text, PRIMARY KEY (person, sequence)); "
            + "CREATE TABLE tender_bench.balance (person bigint PRIMARY KEY, balance bigint NOT NULL)")
        for thread in 0..<threads {
            try run(setup, "INSERT INTO tender_bench.balance VALUES (\(person(thread)), 1000000000) ON CONFLICT DO NOTHING")
        }
        defer { try? run(setup, "DROP SCHEMA tender_bench CASCADE") }
        let each = max(1, total / threads)
        let seconds = try BenchThreads.timed(threads: threads) { (thread) throws(TenderError) in
            let db = try connection(location)
            defer { PQfinish(db) }
            try prepare(db, "insert", "INSERT INTO tender_bench.raw (person, sequence, jws, hash) VALUES ($1, $2, $3, $4)")
            try prepare(db, "debit", "UPDATE tender_bench.balance SET balance = balance - 1 WHERE person = $1")
            let who = String(person(thread))
            // The store's lock keys: a namespace and the person's uid as a 32-bit integer.
            let lock = Int32(truncatingIfNeeded: person(thread))
            let jws = String(repeating: "x", count: 1500)
            let hash = String(repeating: "h", count: 43)
            for index in 0..<each {
                try run(db, "BEGIN; SELECT pg_advisory_xact_lock(1, \(lock))")
                try execute(db, "insert", [who, String(thread * each + index), jws, hash])
                try execute(db, "debit", [who])
                try run(db, "COMMIT")
            }
        }
        return Double(each * threads) / seconds
    }

    /// Throws ``TenderError/invalidArgument(_:)`` when the database at `location` holds tenderd's schema (`tender`) or a
    /// bench's (`tender_bench`): the bench writes made-up people and drops its own schema at the end, so it runs only on a
    /// database of its own, never on a deployment's.
    public static func requireBenchDatabase(_ location: PostgresLocation) throws(TenderError) {
        let db = try connection(location)
        defer { PQfinish(db) }
        let result = PQexec(db, "SELECT count(*) FROM pg_namespace WHERE nspname IN ('tender', 'tender_bench')")
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK, let value = PQgetvalue(result, 0, 0) else {
            throw PostgresError.error(result, db, during: "bench")
        }
        guard String(cString: value) == "0" else {
            throw .invalidArgument(
                "--bench writes made-up people and drops its own schema: \(location.redacted) holds tenderd's schema (or a bench's) already; "
                    + "give it a database of its own (CREATE DATABASE tender_bench)")
        }
    }

    private static func connection(_ location: PostgresLocation) throws(TenderError) -> OpaquePointer {
        guard let db = location.connect() else { throw .store("PostgreSQL connect: out of memory") }
        guard PQstatus(db) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(db)).oneLine
            PQfinish(db)
            throw .storeBusy("PostgreSQL connect to \(location.redacted): \(message)")
        }
        return db
    }

    private static func run(_ db: OpaquePointer, _ sql: String) throws(TenderError) {
        let result = PQexec(db, sql)
        defer { PQclear(result) }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw PostgresError.error(result, db, during: "bench") }
    }

    private static func prepare(_ db: OpaquePointer, _ name: String, _ sql: String) throws(TenderError) {
        let result = PQprepare(db, name, sql, 0, nil)
        defer { PQclear(result) }
        guard result.map({ PQresultStatus($0) }) == PGRES_COMMAND_OK else { throw PostgresError.error(result, db, during: "bench prepare") }
    }

    private static func execute(_ db: OpaquePointer, _ name: String, _ values: [String]) throws(TenderError) {
        let pointers = values.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let constant: [UnsafePointer<CChar>?] = pointers.map { $0.map { UnsafePointer($0) } }
        let result = constant.withUnsafeBufferPointer { PQexecPrepared(db, name, Int32(values.count), $0.baseAddress, nil, nil, 0) }
        defer { PQclear(result) }
        guard result.map({ PQresultStatus($0) }) == PGRES_COMMAND_OK else { throw PostgresError.error(result, db, during: "bench step") }
    }
}
