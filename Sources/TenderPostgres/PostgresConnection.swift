// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
import TenderCore
import TenderStore

/// One libpq connection (PGconn*) of a ``PostgresPool``, closed when released: the search path is the
/// deployment's schema `tender`; the person is set per transaction (``PostgresDatabase``). Keeps the
/// statements it prepared. A connection that broke is opened again before its next transaction.
/// Not thread-safe: one transaction at a time uses it (the pool lends it to one).
final class PostgresConnection {
    /// How long a writer waits for another's lock on the same person before giving up (`storeBusy`), as SQLite's busy timeout.
    static let lockTimeout = "10s"

    private let location: PostgresLocation
    private(set) var handle: OpaquePointer
    /// Prepared statements by the store's SQL text: their server-side names.
    private var prepared: [String: String] = [:]
    /// Rows changed by the last statement run.
    var changes = 0
    /// A call failed without the server answering: the connection is opened again before the next transaction
    /// (libpq may still call a connection whose socket the server closed "OK").
    var needsReset = false
    /// The statements opening the running transaction, not sent yet: they go in the same round trip as its first
    /// statement (``statement(_:_:)``), or are never sent when the transaction runs none.
    private var pendingOpening: [String]?
    /// A read-only transaction's COMMIT was sent without waiting for its answer: read before the next call.
    private var pendingCommit = false

    /// Connects to `location`; throws ``TenderError/storeBusy(_:)`` when the server cannot be reached and
    /// ``TenderError/store(_:)`` when it refuses, or when the role would see every person's rows (a superuser,
    /// or a role with BYPASSRLS, which row-level security does not hold).
    init(location: PostgresLocation) throws(TenderError) {
        self.location = location
        guard let connection = location.connect() else { throw .store("PostgreSQL connect: out of memory") }
        handle = connection
        // Every property is set: from here deinit closes the connection when init throws.
        guard PQstatus(connection) == CONNECTION_OK else {
            throw .storeBusy("PostgreSQL connect to \(location.redacted): \(String(cString: PQerrorMessage(connection)).oneLine); "
                + "the database cannot be reached")
        }
        try setUp()
    }

    deinit { PQfinish(handle) }

    /// The session's settings, and the refusal of a role that row-level security does not hold.
    private func setUp() throws(TenderError) {
        // The search path first, by pg_catalog's own name: until it is set, the session's is the database's or the role's
        // default, which their owner may have set to a schema of theirs before pg_catalog (`ALTER DATABASE ... SET
        // search_path`), so an unqualified name (set_config, pg_roles) would run their code as tenderd's role.
        try statement(
            "SELECT pg_catalog.set_config('search_path', 'tender', false), pg_catalog.set_config('lock_timeout', ?, false), "
                + "pg_catalog.set_config('client_min_messages', 'warning', false)",
            [Self.lockTimeout]
        ).run()
        let role = try statement("SELECT rolsuper OR rolbypassrls FROM pg_catalog.pg_roles WHERE rolname = current_user", [])
        guard try role.step() else { throw .store("PostgreSQL: the connection's role is not in pg_roles") }
        guard role.text(0) == "f" else {
            throw .store(
                "PostgreSQL: tenderd connects as a superuser or a role with BYPASSRLS, which would see every person's rows; "
                    + "connect as a role of its own (docs/scale.md)")
        }
    }

    /// Opens the connection again when it broke (a server restart, a failover, a network cut); throws
    /// ``TenderError/storeBusy(_:)`` while the server cannot be reached.
    func reconnectIfBroken() throws(TenderError) {
        settle()
        guard needsReset || PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        prepared.removeAll()
        pendingOpening = nil
        pendingCommit = false
        guard PQstatus(handle) == CONNECTION_OK else {
            needsReset = true
            throw .storeBusy("PostgreSQL: the database cannot be reached (\(String(cString: PQerrorMessage(handle)).oneLine))")
        }
        // Until its settings are made and its role checked, the connection is not lent as it is.
        needsReset = true
        try setUp()
        needsReset = false
    }

    /// Reads the answer to a read-only transaction's COMMIT sent without waiting (``commitWithoutWaiting()``). Its
    /// failure changes nothing (the transaction wrote nothing); a connection that broke is opened again before its
    /// next transaction.
    func settle() {
        guard pendingCommit else { return }
        pendingCommit = false
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK { needsReset = true }
            PQclear(result)
        }
        if PQstatus(handle) != CONNECTION_OK { needsReset = true }
    }

    /// Ends a read-only transaction without waiting for the server's answer (read at the next use, ``settle()``): one
    /// round trip less per read. A transaction that ran no statement was never opened and is not ended.
    func commitWithoutWaiting() {
        guard pendingOpening == nil else {
            pendingOpening = nil
            return
        }
        if PQsendQuery(handle, "COMMIT") == 1 { pendingCommit = true } else { needsReset = true }
    }

    /// Opens a transaction with `opening` (statements without arguments), sent with its first statement.
    func begin(_ opening: [String]) {
        pendingOpening = opening
    }

    /// Whether the running transaction was opened on the server (a statement ran in it).
    var isOpened: Bool { pendingOpening == nil }

    /// Drops an opening never sent (the transaction ran no statement); else rolls back.
    func abandon() {
        if pendingOpening != nil { pendingOpening = nil } else { rollBack() }
    }

    /// Sends the pending opening alone (for SQL run with ``execute(_:)``), the way it was always sent: one round trip.
    private func sendOpening() throws(TenderError) {
        guard let opening = pendingOpening else { return }
        pendingOpening = nil
        do throws(TenderError) { try run(opening.joined(separator: "; ")) } catch {
            rollBack()
            guard needsReset || PQstatus(handle) != CONNECTION_OK else { throw error }
            needsReset = true
            try reconnectIfBroken()
            try run(opening.joined(separator: "; "))
        }
    }

    /// Runs SQL without arguments, ignoring rows.
    func execute(_ sql: String) throws(TenderError) {
        try sendOpening()
        try run(sql)
    }

    private func run(_ sql: String) throws(TenderError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw PostgresError.error(result, handle, during: "execute") }
    }

    /// The statement for the store's `sql`, prepared once on this connection, with `arguments` bound.
    func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> PostgresStatement {
        if let opening = pendingOpening {
            pendingOpening = nil
            // A connection idle through a server restart or failover fails at its first call, which changed nothing
            // (nothing was committed): it is opened again and the whole call sent once more.
            do throws(TenderError) { return try openAndRun(opening, sql, arguments) } catch {
                guard needsReset || PQstatus(handle) != CONNECTION_OK else { throw error }
                needsReset = true
                try reconnectIfBroken()
                return try openAndRun(opening, sql, arguments)
            }
        }
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

    /// Sends the transaction's `opening`, the preparation of `sql` if this connection has not prepared it yet, and `sql`
    /// run with `arguments`, in one round trip (libpq's pipeline mode); answers `sql` already run. Any failure fails the
    /// rest (the server skips what follows an error until the pipeline's end) and is thrown: the first error.
    private func openAndRun(_ opening: [String], _ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> PostgresStatement {
        let known = prepared[sql]
        let name = known ?? "t\(prepared.count + 1)"
        let translated = Self.translate(sql)
        // Binds (and refuses bad text) before anything is sent.
        let bound = try PostgresStatement(connection: handle, name: name, arguments: arguments) { _ in }
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError.error(nil, handle, during: "pipeline") }
        var sent = true
        for text in opening { sent = sent && PQsendQueryParams(handle, text, 0, nil, nil, nil, nil, 0) == 1 }
        if known == nil { sent = sent && PQsendPrepare(handle, name, translated.text, Int32(translated.parameters), nil) == 1 }
        sent = sent && bound.withArguments { count, values, lengths, formats in
            PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0) == 1
        }
        sent = sent && PQpipelineSync(handle) == 1
        // Every answer is read, up to the pipeline's end, whatever failed: the first error is kept.
        var failure: TenderError?
        var last: OpaquePointer?
        let expected = opening.count + (known == nil ? 1 : 0) + 1
        var answered = 0
        while sent, answered < expected {
            var answer: OpaquePointer?
            while let result = PQgetResult(handle) {
                if answer == nil { answer = result } else { PQclear(result) }
            }
            answered += 1
            guard let answer else {
                failure = failure ?? PostgresError.error(nil, handle, during: "pipeline")
                break
            }
            let status = PQresultStatus(answer)
            if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK {
                if failure == nil && status != PGRES_PIPELINE_ABORTED { failure = PostgresError.error(answer, handle, during: "step") }
                PQclear(answer)
            } else if answered == expected {
                last = answer
            } else {
                if known == nil && answered == expected - 1 { prepared[sql] = name }
                PQclear(answer)
            }
        }
        if sent, failure == nil || PQstatus(handle) == CONNECTION_OK {
            // The pipeline's end (PGRES_PIPELINE_SYNC), then leave pipeline mode.
            while let result = PQgetResult(handle) {
                let synced = PQresultStatus(result) == PGRES_PIPELINE_SYNC
                PQclear(result)
                if synced { break }
            }
        }
        if !sent { failure = failure ?? PostgresError.error(nil, handle, during: "pipeline") }
        if PQexitPipelineMode(handle) != 1 { needsReset = true }
        if let failure {
            PQclear(last)
            if PQstatus(handle) != CONNECTION_OK { needsReset = true }
            throw failure
        }
        guard let last else { throw PostgresError.error(nil, handle, during: "pipeline") }
        return PostgresStatement(connection: handle, name: name, result: last) { [unowned self] in self.changes = $0 }
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

    /// Ends a failed transaction; a ROLLBACK the server does not answer means the connection is gone
    /// (the server rolls back by itself), so it is opened again before the next transaction.
    func rollBack() {
        let result = PQexec(handle, "ROLLBACK")
        defer { PQclear(result) }
        if result.map({ PQresultStatus($0) }) != PGRES_COMMAND_OK { needsReset = true }
    }
}
