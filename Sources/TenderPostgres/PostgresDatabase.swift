// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
import TenderCore
import TenderStore

/// One libpq connection (PGconn*) of one person's store, closed when released: the search path is the
/// deployment's schema `tender` and `tender.uid` is the person, so row-level security
/// (``PostgresSchema``) shows it that person's rows only. Write transactions take a transaction-scoped
/// advisory lock on the person (``writeTransaction(_:)``), so the hash chain stays one line across
/// every tenderd on the database. A connection that broke is opened again at the next transaction.
/// Not thread-safe: its owner serializes use.
final class PostgresDatabase: StoreDatabase {
    /// How long a writer waits for another's lock on the same person before giving up (`storeBusy`), as SQLite's busy timeout.
    static let lockTimeout = "10s"

    private let location: PostgresLocation
    private let uid: UInt32
    private var handle: OpaquePointer
    /// Prepared statements by the store's SQL text: their server-side names.
    private var prepared: [String: String] = [:]
    /// Rows changed by the last statement run.
    private(set) var changes = 0
    /// A call failed without the server answering: the connection is opened again before the next transaction
    /// (libpq may still call a connection whose socket the server closed "OK").
    private var needsReset = false

    /// Connects to `location` for the person `uid`; throws ``TenderError/storeBusy(_:)`` when the server
    /// cannot be reached and ``TenderError/store(_:)`` when it refuses, or when the role would see every
    /// person's rows (a superuser, or a role with BYPASSRLS, which row-level security does not hold).
    init(location: PostgresLocation, uid: UInt32) throws(TenderError) {
        self.location = location
        self.uid = uid
        handle = try Self.connect(location)
        // Every property is set: should setUp throw, deinit closes the connection.
        try setUp()
    }

    deinit { PQfinish(handle) }

    private static func connect(_ location: PostgresLocation) throws(TenderError) -> OpaquePointer {
        guard let connection = location.connect() else { throw .store("PostgreSQL connect: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
            PQfinish(connection)
            throw .storeBusy("PostgreSQL connect to \(location.redacted): \(message); the database cannot be reached")
        }
        return connection
    }

    /// The session's settings, and the refusal of a role that row-level security does not hold.
    private func setUp() throws(TenderError) {
        let role = try statement("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user", [])
        guard try role.step() else { throw .store("PostgreSQL: the connection's role is not in pg_roles") }
        guard role.text(0) == "f" else {
            throw .store(
                "PostgreSQL: tenderd connects as a superuser or a role with BYPASSRLS, which would see every person's rows; "
                    + "connect as a role of its own (docs/scale.md)")
        }
        try statement(
            "SELECT set_config('search_path', 'tender', false), set_config('tender.uid', ?, false), set_config('lock_timeout', ?, false), "
                + "set_config('client_min_messages', 'warning', false)",
            [String(uid), Self.lockTimeout]
        ).run()
    }

    /// Opens the connection again when it broke (a server restart, a failover, a network cut); throws
    /// ``TenderError/storeBusy(_:)`` while the server cannot be reached.
    private func reconnectIfBroken() throws(TenderError) {
        guard needsReset || PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        prepared.removeAll()
        needsReset = PQstatus(handle) != CONNECTION_OK
        guard PQstatus(handle) == CONNECTION_OK else {
            throw .storeBusy("PostgreSQL: the database cannot be reached (\(String(cString: PQerrorMessage(handle)).oneLine))")
        }
        try setUp()
    }

    func execute(_ sql: String) throws(TenderError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw PostgresError.error(result, handle, during: "execute") }
    }

    func statement(_ sql: String, _ arguments: [Any?]) throws(TenderError) -> PostgresStatement {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "t\(prepared.count + 1)"
            let translated = Self.translate(sql)
            let result = PQprepare(handle, name, translated.text, Int32(translated.parameters), nil)
            defer { PQclear(result) }
            guard let result, PQresultStatus(result) == PGRES_COMMAND_OK else { throw PostgresError.error(result, handle, during: "prepare") }
            prepared[sql] = name
        }
        return try PostgresStatement(connection: handle, name: name, arguments: arguments) { [unowned self] in self.changes = $0 }
    }

    /// The store's SQL in PostgreSQL's terms: `?` placeholders become `$1`, `$2`... (outside quotes), and an
    /// ON CONFLICT target names the person first (`ON CONFLICT (uid, key)`: every unique key starts with uid).
    static func translate(_ sql: String) -> (text: String, parameters: Int) {
        var out = ""
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                count += 1
                out += "$\(count)"
            } else {
                out.append(character)
            }
        }
        return (out.replacing("ON CONFLICT (", with: "ON CONFLICT (uid, "), count)
    }

    func writeTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN", lock: (PostgresSchema.lockNamespace, Int32(bitPattern: uid)), body)
    }

    func lazyWriteTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN", lock: (PostgresSchema.lockNamespace, Int32(bitPattern: uid)), lazy: true, body)
    }

    func readTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", lock: nil, body)
    }

    /// Runs `body` between `begin` and COMMIT, first taking the transaction-scoped advisory `lock` when given
    /// (it is let go at COMMIT or ROLLBACK, and by the server when the connection dies). A COMMIT whose answer
    /// is lost leaves the outcome unknown: the error says so, and the same idempotency key finds the payment if it was kept.
    func transaction<T>(begin: String, lock: (Int32, Int32)?, lazy: Bool = false, _ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try reconnectIfBroken()
        // A connection idle through a server restart or failover fails at its first call: BEGIN, which changes
        // nothing; it is opened again and BEGIN sent once more.
        do throws(TenderError) { try execute(begin) } catch {
            rollBack()
            guard needsReset else { throw error }
            try reconnectIfBroken()
            try execute(begin)
        }
        let result: T
        do throws(TenderError) {
            if lazy { try execute("SET LOCAL synchronous_commit TO OFF") }
            if let lock { try statement("SELECT pg_advisory_xact_lock(?::integer, ?::integer)", [Int64(lock.0), Int64(lock.1)]).run() }
            result = try body()
        } catch {
            rollBack()
            throw error
        }
        let committed = PQexec(handle, "COMMIT")
        defer { PQclear(committed) }
        guard let committed, PQresultStatus(committed) == PGRES_COMMAND_OK else {
            let answered = committed.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) } != nil
            let error = PostgresError.error(committed, handle, during: "commit")
            if answered {
                rollBack()
                throw error
            }
            needsReset = true
            throw .outcomeUnknown(
                "PostgreSQL: the connection broke during COMMIT, so whether this transaction was kept is unknown "
                    + "(a payment asked again with the same idempotency key finds it if it was): \(error.message)")
        }
        return result
    }

    /// Ends a failed transaction; a ROLLBACK the server does not answer means the connection is gone
    /// (the server rolls back by itself), so it is opened again before the next transaction.
    private func rollBack() {
        let result = PQexec(handle, "ROLLBACK")
        defer { PQclear(result) }
        if result.map({ PQresultStatus($0) }) != PGRES_COMMAND_OK { needsReset = true }
    }
}
