// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
internal import Glibc
import TenderCore
import TenderCrypto

/// The raw ceilings of the PostgreSQL store's bench (`tenderd --bench`): write transactions straight through libpq on the
/// same server, with nothing of Tender's around them, one connection per thread, prepared statements, in one of the
/// shapes (``Shape``). Their tables live in a schema of their own, `tender_bench`, made for the run (an error when it
/// exists) and dropped at its end.
public enum PostgresRawLoop {
    /// What a raw transaction does.
    public enum Shape: Sendable {
        /// The first yardstick: BEGIN and the person's advisory lock (one round trip), an insert of a ledger-sized row, an
        /// update of a balance, COMMIT, each waited for: 4 round trips, no read.
        case lockInsertDebit
        /// What a payment must do, in the fewest round trips: BEGIN, the person's lock, and the reads a payment cannot
        /// skip (the chain's head, whose hash the new record signs; the idempotency key; the balance) in one round trip;
        /// then the insert of the record (into a table with the ledger's columns and unique keys), the debit and COMMIT
        /// in a second. 2 round trips, 8 statements. Signs nothing: its record is a constant 1,500-byte string.
        case payment
        /// ``payment`` with the work SQLite's raw payment rows do besides their commit (`raw_sign_then_commit_payment_per_s`,
        /// docs/performance.md): an Ed25519 signature a transaction, through TenderCrypto's ``Ed25519PrivateKey`` (the signer
        /// Tender's records are signed with), over a record-sized signing input naming the transaction's idempotency key,
        /// made before BEGIN (as the store signs a quiet payment before its transaction), its JWS (1,500 bytes, as
        /// ``payment``'s) the row inserted. The rest is ``payment``'s, unchanged.
        case signedPayment
    }

    /// Transactions a second of `threads` threads running `total` transactions in all of `shape`, each thread for person
    /// `person(thread)`. `timing` is called with true just before the timed threads start and with false once they all ended
    /// (the bench reads the server's CPU there, without the tables' making and dropping). Throws ``TenderError/store(_:)`` or
    /// ``TenderError/storeBusy(_:)`` as the store would.
    public static func transactionsPerSecond(
        location: PostgresLocation, shape: Shape = .lockInsertDebit, threads: Int, total: Int, person: @escaping @Sendable (Int) -> Int64,
        timing: (Bool) -> Void = { _ in }
    ) throws(TenderError) -> Double {
        let setup = try connection(location)
        defer { PQfinish(setup) }
        try run(setup, "SET client_min_messages = warning; CREATE SCHEMA tender_bench; "
            + "CREATE TABLE tender_bench.raw (person bigint, sequence bigint, jws text, hash text, PRIMARY KEY (person, sequence)); "
            + "CREATE TABLE tender_bench.ledger (person bigint NOT NULL, sequence bigint NOT NULL, type text NOT NULL, jws text NOT NULL, "
            + "hash text NOT NULL, idempotency_key text, fingerprint bytea, account_id text, payee_contact_id text, payee_handle_id text, "
            + "currency text, amount_minor bigint, seal text, PRIMARY KEY (person, sequence), UNIQUE (person, idempotency_key)); "
            + "CREATE TABLE tender_bench.balance (person bigint PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))")
        for thread in 0..<threads {
            try run(setup, "INSERT INTO tender_bench.balance VALUES (\(person(thread)), 1000000000) ON CONFLICT DO NOTHING")
        }
        defer { try? run(setup, "DROP SCHEMA tender_bench CASCADE") }
        let each = max(1, total / threads)
        timing(true)
        defer { timing(false) }
        let seconds = try BenchThreads.timed(threads: threads) { (thread) throws(TenderError) in
            let db = try connection(location)
            defer { PQfinish(db) }
            let who = String(person(thread))
            // The store's lock keys: a namespace and the person's uid as a 32-bit integer.
            let lock = Int32(truncatingIfNeeded: person(thread))
            let jws = String(repeating: "x", count: 1500)
            let hash = String(repeating: "h", count: 43)
            switch shape {
            case .lockInsertDebit:
                try prepare(db, "insert", "INSERT INTO tender_bench.raw (person, sequence, jws, hash) VALUES ($1, $2, $3, $4)")
                try prepare(db, "debit", "UPDATE tender_bench.balance SET balance = balance - 1 WHERE person = $1")
                for index in 0..<each {
                    try run(db, "BEGIN; SELECT pg_advisory_xact_lock(1, \(lock))")
                    try execute(db, "insert", [who, String(thread * each + index), jws, hash])
                    try execute(db, "debit", [who])
                    try run(db, "COMMIT")
                }
            case .payment, .signedPayment:
                try prepare(db, "lock", "SELECT pg_advisory_xact_lock(1, $1::int)")
                try prepare(db, "head", "SELECT sequence, hash FROM tender_bench.ledger WHERE person = $1 ORDER BY sequence DESC LIMIT 1")
                try prepare(db, "key", "SELECT jws FROM tender_bench.ledger WHERE person = $1 AND idempotency_key = $2")
                try prepare(db, "funds", "SELECT balance FROM tender_bench.balance WHERE person = $1")
                try prepare(db, "insert", "INSERT INTO tender_bench.ledger (person, sequence, type, jws, hash, idempotency_key, fingerprint, "
                    + "account_id, payee_contact_id, payee_handle_id, currency, amount_minor, seal) "
                    + "VALUES ($1, $2, 'payment', $3, $4, $5, '\\x00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', "
                    + "'checking', 'tim-cook', 'tc-work', 'USD', 100, $6)")
                try prepare(db, "debit", "UPDATE tender_bench.balance SET balance = balance - 100 WHERE person = $1")
                let seal = String(repeating: "s", count: 43)
                let signer: Ed25519PrivateKey? = shape == .signedPayment ? try Ed25519PrivateKey.generate() : nil
                let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 1413)
                for index in 0..<each {
                    let key = "raw-\(thread)-\(index)"
                    var record = jws
                    if let signer {
                        // The signing input: a JWS's header and payload, 1,413 bytes, naming this transaction's key; its
                        // signature's 86 base64url characters after a dot make 1,500 bytes, as the unsigned loop's row.
                        // Built from bytes made once (no per-character work of Swift's strings in the yardstick).
                        var input = Array("eyJhbGciOiJFZERTQSJ9.\(key)".utf8)
                        if input.count < filler.count { input.append(contentsOf: filler[input.count...]) }
                        let signature = try signer.sign(input)
                        input.append(UInt8(ascii: "."))
                        input.append(contentsOf: Base64URL.encode(signature).utf8)
                        record = String(decoding: input, as: UTF8.self)
                    }
                    let answers = try pipeline(db, [("BEGIN", []), ("lock", [String(lock)]), ("head", [who]), ("key", [who, key]), ("funds", [who])])
                    // The chain's next sequence from the head read (thread-safe: the lock is held), the key unpaid, the funds there.
                    let next = (Int64(answers[2] ?? "0") ?? 0) + 1
                    guard answers[3] == nil, let balance = answers[4].flatMap({ Int64($0) }), balance >= 100 else {
                        throw .internal("the raw loop's checks failed")
                    }
                    _ = try pipeline(db, [("insert", [who, String(next), record, hash, key, seal]), ("debit", [who]), ("COMMIT", [])])
                }
            }
        }
        return Double(each * threads) / seconds
    }

    /// Runs `commands` (a prepared statement's name and its arguments, or BEGIN and COMMIT) in one round trip (libpq's
    /// pipeline mode); answers each one's first column of its first row, if any. Throws the first error.
    private static func pipeline(_ db: OpaquePointer, _ commands: [(String, [String])]) throws(TenderError) -> [String?] {
        guard PQenterPipelineMode(db) == 1 else { throw PostgresError.error(nil, db, during: "bench pipeline") }
        defer { PQexitPipelineMode(db) }
        for (name, values) in commands {
            let sent: Bool
            if name == "BEGIN" || name == "COMMIT" {
                sent = PQsendQueryParams(db, name, 0, nil, nil, nil, nil, 0) == 1
            } else {
                let pointers = values.map { strdup($0) }
                defer { for pointer in pointers { free(pointer) } }
                let constant: [UnsafePointer<CChar>?] = pointers.map { $0.map { UnsafePointer($0) } }
                sent = constant.withUnsafeBufferPointer { PQsendQueryPrepared(db, name, Int32(values.count), $0.baseAddress, nil, nil, 0) } == 1
            }
            guard sent else { throw PostgresError.error(nil, db, during: "bench pipeline") }
        }
        guard PQpipelineSync(db) == 1 else { throw PostgresError.error(nil, db, during: "bench pipeline") }
        var answers: [String?] = []
        var failure: TenderError?
        for _ in commands {
            var first: String?
            var answered = false
            while let result = PQgetResult(db) {
                answered = true
                let status = PQresultStatus(result)
                if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK {
                    failure = failure ?? PostgresError.error(result, db, during: "bench step")
                } else if PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0, let value = PQgetvalue(result, 0, 0) {
                    first = String(cString: value)
                }
                PQclear(result)
            }
            guard answered else { throw PostgresError.error(nil, db, during: "bench pipeline") }
            answers.append(first)
        }
        while let result = PQgetResult(db) {
            let synced = PQresultStatus(result) == PGRES_PIPELINE_SYNC
            PQclear(result)
            if synced { break }
        }
        if let failure { throw failure }
        return answers
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
