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

    /// The most statements queued (``PostgresStatement/run()``) before they are sent without waiting for a read or COMMIT.
    static let queueLimit = 64

    private let location: PostgresLocation
    private(set) var handle: OpaquePointer
    /// Prepared statements by the store's SQL text: their server-side names.
    private var prepared: [String: String] = [:]
    /// The number of the last name given to a statement to prepare.
    private var named = 0
    /// Rows changed by the last statement answered.
    private var answeredChanges = 0
    /// A call failed without the server answering: the connection is opened again before the next transaction
    /// (libpq may still call a connection whose socket the server closed "OK").
    var needsReset = false
    /// The statements opening the running transaction, not sent yet: they go in the same round trip as its first
    /// statement (``send(_:)``), or are never sent when the transaction runs none.
    private var pendingOpening: Opening?
    /// Statements run for their effect only (``PostgresStatement/run()``), not sent yet: they go in the next round trip.
    private var queued: [PostgresStatement] = []
    /// The failure of a round trip made to answer ``changes``, which cannot throw: thrown by the next call, and by the
    /// transaction (``PostgresDatabase``).
    private(set) var queuedFailure: TenderError?
    /// A read-only transaction's COMMIT was sent without waiting for its answer: read before the next call.
    private var pendingCommit = false
    /// Round trips waited for since ``takeRoundTrips()`` last counted them (``PostgresPool/roundTrips``).
    private var roundTrips = 0
    /// A round trip sent by ``sendAhead()`` whose answers are not read yet: read first by whatever uses the connection next.
    private var inFlight: InFlight?

    /// A round trip sent without waiting (``sendAhead()``): what it carried, to read its answers (and send it again
    /// should the connection prove broken at its first round trip), and whether libpq took all of it.
    private struct InFlight {
        let opening: Opening?
        let statements: [PostgresStatement]
        let commands: [Command]
        let sent: Bool
    }

    /// The round trips waited for since the last call, counted from 0 again.
    func takeRoundTrips() -> Int {
        defer { roundTrips = 0 }
        return roundTrips
    }

    /// Rows changed by the last statement run. Queued statements are sent first (one round trip), as the count is theirs;
    /// should that fail, the count is 0 and the failure is thrown by the next call (``queuedFailure``).
    var changes: Int {
        keepInFlightFailure()
        if !queued.isEmpty, queuedFailure == nil {
            do throws(TenderError) { _ = try roundTrip(nil) } catch { queuedFailure = error }
        }
        return queuedFailure == nil ? answeredChanges : 0
    }

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

    /// The session's settings, and the refusal of a role that row-level security does not hold (one round trip).
    private func setUp() throws(TenderError) {
        // The search path first, by pg_catalog's own name: until it is set, the session's is the database's or the role's
        // default, which their owner may have set to a schema of theirs before pg_catalog (`ALTER DATABASE ... SET
        // search_path`), so an unqualified name (set_config, pg_roles) would run their code as tenderd's role.
        try statement(
            "SELECT pg_catalog.set_config('search_path', 'tender', false), pg_catalog.set_config('lock_timeout', ?, false), "
                + "pg_catalog.set_config('client_min_messages', 'warning', false)",
            [Self.lockTimeout]
        ).run()
        // What the database's or role's owner may set for every session (`ALTER DATABASE ... SET`), read by tenderd as its
        // own: bytea as hex (the store reads fingerprints and public keys in that form only), and commits that wait for
        // their WAL (an inherited `off` would acknowledge payments a server crash then loses; a stronger level, such as
        // `remote_apply`, stays). Parsed after the search path is tenderd's; the operator named by pg_catalog anyway.
        try statement(
            "SELECT pg_catalog.set_config('bytea_output', 'hex', false), pg_catalog.set_config('synchronous_commit', "
                + "CASE WHEN pg_catalog.current_setting('synchronous_commit') OPERATOR(pg_catalog.=) 'off' THEN 'on' "
                + "ELSE pg_catalog.current_setting('synchronous_commit') END, false)",
            []
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
    /// ``TenderError/storeBusy(_:)`` while the server cannot be reached. A connection the server closed while it was idle
    /// (a restart, an administrator's termination) is found here, by reading what the server sent meanwhile, without waiting.
    func reconnectIfBroken() throws(TenderError) {
        settle()
        // Twice: the first read takes what the server sent (its FATAL message), the second meets the end of the connection.
        if PQconsumeInput(handle) == 0 || PQconsumeInput(handle) == 0 { needsReset = true }
        guard needsReset || PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        forgetSession()
        guard PQstatus(handle) == CONNECTION_OK else {
            needsReset = true
            throw .storeBusy("PostgreSQL: the database cannot be reached (\(String(cString: PQerrorMessage(handle)).oneLine))")
        }
        // Until its settings are made and its role checked, the connection is not lent as it is.
        needsReset = true
        try setUp()
        needsReset = false
    }

    /// Forgets what the session on the server held (a new one is made): its prepared statements, and anything unsent.
    private func forgetSession() {
        inFlight = nil
        prepared.removeAll()
        pendingOpening = nil
        queued.removeAll()
        queuedFailure = nil
        pendingCommit = false
    }

    /// Reads the answer to a read-only transaction's COMMIT sent without waiting (``commitWithoutWaiting()``). Its
    /// failure changes nothing (the transaction wrote nothing); a connection that broke is opened again before its
    /// next transaction.
    func settle() {
        keepInFlightFailure()
        guard pendingCommit else { return }
        pendingCommit = false
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK { needsReset = true }
            PQclear(result)
        }
        if PQstatus(handle) != CONNECTION_OK { needsReset = true }
    }

    /// Ends a read-only transaction without waiting for the server's answer (read at the next use, ``settle()``): one
    /// round trip less per read. A transaction that ran no statement was never opened and is not ended. Throws what
    /// the statements it queued threw (then the transaction is rolled back).
    func commitWithoutWaiting() throws(TenderError) {
        try receiveInFlight()
        if !queued.isEmpty || queuedFailure != nil { _ = try roundTrip(nil) }
        guard pendingOpening == nil else {
            pendingOpening = nil
            return
        }
        if PQsendQuery(handle, "COMMIT") == 1 { pendingCommit = true } else { needsReset = true }
    }

    /// A transaction's opening: statements without arguments (`texts`), then a statement with arguments (`call`), prepared
    /// on the connection the first time it goes (in the same round trip), so the server parses and plans it once per
    /// connection, not once per transaction.
    struct Opening {
        let texts: [String]
        let call: PostgresStatement?
    }

    /// Opens a transaction with `opening` (statements without arguments) and `call`, sent with its first statement.
    func begin(_ opening: [String], call: PostgresStatement? = nil) {
        pendingOpening = Opening(texts: opening, call: call)
    }

    /// Whether the running transaction has anything for the server: a statement ran in it, or is queued.
    var isOpened: Bool { pendingOpening == nil || !queued.isEmpty }

    /// Drops an opening never sent and the statements queued (the transaction ran none); else rolls back.
    func abandon() {
        // A round trip in flight is read first (its answers would otherwise meet the ROLLBACK's); its failure changes nothing here.
        if inFlight != nil { try? receiveInFlight() }
        queued.removeAll()
        queuedFailure = nil
        if pendingOpening != nil { pendingOpening = nil } else { rollBack() }
    }

    /// Runs SQL without arguments, ignoring rows: what is queued (and the transaction's opening) is sent first.
    func execute(_ sql: String) throws(TenderError) {
        try receiveInFlight()
        if pendingOpening != nil || !queued.isEmpty || queuedFailure != nil { _ = try roundTrip(nil) }
        try run(sql)
    }

    private func run(_ sql: String) throws(TenderError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        roundTrips += 1
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw PostgresError.error(result, handle, during: "execute") }
    }

    /// The statement for the store's `sql` with `arguments` bound; sends nothing yet (``PostgresStatement``).
    func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> PostgresStatement {
        try PostgresStatement(owner: self, sql: sql, arguments: arguments)
    }

    /// Queues `statement`, run for its effect only, for the next round trip; sends the queue when it is full.
    func queue(_ statement: PostgresStatement) throws(TenderError) {
        if let queuedFailure { throw queuedFailure }
        statement.markSent()
        queued.append(statement)
        if queued.count >= Self.queueLimit { _ = try roundTrip(nil) }
    }

    /// Queues `statement`, a read made ahead (``PostgresDatabase/ahead(_:_:)``), for the next round trip, after what is
    /// queued before it: its answer is kept in it, and its first step waits for that round trip (``flush()``). A failure
    /// of any statement of that round trip fails the transaction (every answer is read, none is left on the connection).
    func queueRead(_ statement: PostgresStatement) throws(TenderError) {
        if let queuedFailure { throw queuedFailure }
        statement.markAwaiting()
        queued.append(statement)
        if queued.count >= Self.queueLimit { _ = try roundTrip(nil) }
    }

    /// Reads the answers of the round trip in flight (``sendAhead()``), if any, then sends what is still queued (and the
    /// opening, when pending) in one round trip; throws the first failure.
    func flush() throws(TenderError) {
        if inFlight != nil {
            try receiveInFlight()
            guard pendingOpening != nil || !queued.isEmpty else { return }
        }
        _ = try roundTrip(nil)
    }

    /// Sends the opening, when pending, and what is queued (the reads made ahead) now, without waiting for their answers:
    /// the caller works while the server answers, and the next use of the connection reads them (a read made ahead waits
    /// for them at its first step, ``flush()``). Sends nothing when nothing is pending, or while a failure is to be thrown.
    /// Every answer is still read, and the first failure fails the transaction as a round trip waited for at once would.
    func sendAhead() throws(TenderError) {
        try receiveInFlight()
        if let queuedFailure { throw queuedFailure }
        guard pendingOpening != nil || !queued.isEmpty else { return }
        let opening = pendingOpening
        let statements = queued
        pendingOpening = nil
        queued.removeAll()
        let sending = send(opening, statements, nil, commit: false)
        inFlight = InFlight(opening: opening, statements: statements, commands: sending.commands, sent: sending.sent)
    }

    /// Reads the answers of the round trip in flight, if any and no failure waits already, keeping its failure as
    /// ``queuedFailure`` (thrown by the transaction's next call) instead of throwing it.
    private func keepInFlightFailure() {
        guard inFlight != nil, queuedFailure == nil else { return }
        do throws(TenderError) { try receiveInFlight() } catch { queuedFailure = error }
    }

    /// Reads the answers of the round trip ``sendAhead()`` sent, if any. A connection that broke under the transaction's
    /// first round trip (idle through a server restart) is opened again and that round trip sent once more, as
    /// ``roundTrip(_:)`` does; throws the first failure.
    private func receiveInFlight() throws(TenderError) {
        guard let flight = inFlight else { return }
        inFlight = nil
        var answers = read(flight.commands, sent: flight.sent)
        if let failure = answers.failure {
            guard flight.opening != nil, needsReset || PQstatus(handle) != CONNECTION_OK else { throw failure }
            needsReset = true
            // What the transaction queued after the round trip left (unsent, of this transaction) goes on the new session
            // too: opening it again forgets everything unsent, and a write dropped here would be answered as committed.
            let later = queued
            try reconnectIfBroken()
            answers = pipeline(flight.opening, flight.statements, nil, commit: false)
            if let failure = answers.failure { throw failure }
            queued = later
        }
    }

    /// Sends `statement`, after what is queued, and answers its result (owned by the caller).
    func send(_ statement: PostgresStatement) throws(TenderError) -> OpaquePointer? {
        try roundTrip(statement)
    }

    /// Ends the running transaction with COMMIT, sent after what is queued (and the opening, when no statement was sent
    /// yet: a transaction of writes only is then one round trip). Throws ``TenderError/outcomeUnknown(_:)`` when the
    /// connection broke before COMMIT was answered (the transaction may have been kept), unless the server's last answer was
    /// an error for a statement before COMMIT (then that error: COMMIT never ran); else the first error, the transaction
    /// rolled back.
    func commit() throws(TenderError) {
        keepInFlightFailure()
        if let queuedFailure {
            abandon()
            throw queuedFailure
        }
        let opening = pendingOpening
        let statements = queued
        pendingOpening = nil
        queued.removeAll()
        let answers = pipeline(opening, statements, nil, commit: true)
        if answers.committed { return }
        guard let failure = answers.failure else { throw .internal("PostgreSQL: COMMIT went unanswered without an error") }
        if answers.answeredFailure, PQstatus(handle) == CONNECTION_OK {
            // A statement (or COMMIT) answered an error on a connection still open: nothing was kept. The server ended the
            // transaction when COMMIT failed; a failed statement left it open (aborted) until ROLLBACK. (A connection the
            // server closed with its answer, as when the backend is terminated, may have committed first: unknown, below.)
            rollBack()
            throw failure
        }
        needsReset = true
        // The server answered an error for a statement before COMMIT and then closed (its session terminated while a write
        // waited, as for a row another session locked): it never ran COMMIT, so nothing was kept. Not unknown: a write whose
        // outcome is unknown is looked for after (its audit entries, by their values), and an identical entry kept before
        // would be taken for it (the entries then forgotten, unwritten).
        if answers.failedBeforeCommit { throw failure }
        throw .outcomeUnknown(
            "PostgreSQL: the connection broke during COMMIT, so whether this transaction was kept is unknown "
                + "(a payment asked again with the same idempotency key finds it if it was): \(failure.message)")
    }

    /// Sends the opening, if pending, what is queued, and `final` if any, in one round trip, and answers `final`'s result.
    /// A connection idle through a server restart or failover fails at its transaction's first round trip, which changed
    /// nothing (nothing was committed: no COMMIT was in it): it is opened again and the whole round trip sent once more.
    private func roundTrip(_ final: PostgresStatement?) throws(TenderError) -> OpaquePointer? {
        try receiveInFlight()
        if let queuedFailure { throw queuedFailure }
        let opening = pendingOpening
        let statements = queued
        pendingOpening = nil
        queued.removeAll()
        final?.markSent()
        var answers = pipeline(opening, statements, final, commit: false)
        if let failure = answers.failure {
            guard opening != nil, needsReset || PQstatus(handle) != CONNECTION_OK else { throw failure }
            needsReset = true
            try reconnectIfBroken()
            answers = pipeline(opening, statements, final, commit: false)
            if let failure = answers.failure { throw failure }
        }
        return answers.final
    }

    /// What a pipeline's answers said: `final`'s result (owned by the caller), whether COMMIT succeeded, and the first
    /// failure, `answeredFailure` when the server answered it (else the connection broke before).
    private struct Answers {
        var final: OpaquePointer?
        var committed = false
        var failure: TenderError?
        var answeredFailure = false
        /// The failure is the server's answer to a command before COMMIT (an error, or the FATAL of a terminated session):
        /// the server runs a pipeline in order and skips the rest after an error, so COMMIT never ran.
        var failedBeforeCommit = false
    }

    /// What one command of a pipeline was.
    private enum Command {
        case opening
        case prepare(sql: String, name: String)
        case queued(PostgresStatement)
        case final
        case commit

        /// The operation its errors name.
        var operation: String {
            switch self {
            case .opening: "begin"
            case .prepare: "prepare"
            case .queued, .final: "step"
            case .commit: "commit"
            }
        }
    }

    /// Sends `opening`, `statements` (each prepared first in the same round trip when this connection has not prepared it
    /// yet), `final` and COMMIT as asked, in one round trip (libpq's pipeline mode), and reads every answer. The server
    /// skips whatever follows an error up to the pipeline's end: the first error is the failure.
    private func pipeline(_ opening: Opening?, _ statements: [PostgresStatement], _ final: PostgresStatement?, commit: Bool) -> Answers {
        let sending = send(opening, statements, final, commit: commit)
        return read(sending.commands, sent: sending.sent)
    }

    /// The sending half of ``pipeline(_:_:_:commit:)``: enters pipeline mode, sends every command and the pipeline's end
    /// (libpq flushes it to the server), and answers the commands sent and whether all were; ``read(_:sent:)``
    /// reads their answers and leaves pipeline mode. Nothing else may use the connection in between.
    private func send(
        _ opening: Opening?, _ statements: [PostgresStatement], _ final: PostgresStatement?, commit: Bool
    ) -> (commands: [Command], sent: Bool) {
        var commands: [Command] = []
        guard PQenterPipelineMode(handle) == 1 else {
            needsReset = true
            return ([], false)
        }
        var sent = true
        commands.reserveCapacity((opening?.texts.count ?? 0) + statements.count + 4)
        // Statements this pipeline prepares, before their answers make them ``prepared`` (made only when one is new).
        var preparing: [String: String]?
        /// Sends `statement` (prepared first when new), as the pipeline's `command`.
        func sendStatement(_ statement: PostgresStatement, as command: Command) {
            var name = prepared[statement.sql] ?? preparing?[statement.sql]
            if name == nil {
                named += 1
                let fresh = "t\(named)"
                let translated = Self.translate(statement.sql)
                sent = PQsendPrepare(handle, fresh, translated.text, Int32(translated.parameters), nil) == 1
                commands.append(.prepare(sql: statement.sql, name: fresh))
                preparing = preparing ?? [:]
                preparing?[statement.sql] = fresh
                name = fresh
            }
            guard sent, let name else { return }
            sent = statement.withArguments { count, values, lengths, formats in
                PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0) == 1
            }
            commands.append(command)
        }
        for text in opening?.texts ?? [] where sent {
            sent = PQsendQueryParams(handle, text, 0, nil, nil, nil, nil, 0) == 1
            commands.append(.opening)
        }
        if let call = opening?.call, sent { sendStatement(call, as: .opening) }
        for statement in statements where sent { sendStatement(statement, as: .queued(statement)) }
        if let final, sent { sendStatement(final, as: .final) }
        if commit, sent {
            sent = PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
            commands.append(.commit)
        }
        sent = sent && PQpipelineSync(handle) == 1
        return (commands, sent)
    }

    /// The reading half of ``pipeline(_:_:_:commit:)``: every answer of `commands` (sent, when `sent`), in order; the first
    /// error is the failure; leaves pipeline mode.
    private func read(_ commands: [Command], sent: Bool) -> Answers {
        var answers = Answers()
        if commands.isEmpty, !sent, PQpipelineStatus(handle) == PQ_PIPELINE_OFF {
            // Pipeline mode could not be entered.
            answers.failure = PostgresError.error(nil, handle, during: "pipeline")
            return answers
        }
        if sent {
            roundTrips += 1
            for command in commands {
                var answer: OpaquePointer?
                while let result = PQgetResult(handle) {
                    if answer == nil { answer = result } else { PQclear(result) }
                }
                guard let answer else {
                    // No answer: the connection broke.
                    answers.failure = answers.failure ?? PostgresError.error(nil, handle, during: "pipeline")
                    break
                }
                let status = PQresultStatus(answer)
                guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                    if answers.failure == nil, status != PGRES_PIPELINE_ABORTED {
                        answers.failure = PostgresError.error(answer, handle, during: command.operation)
                        answers.answeredFailure = PQresultErrorField(answer, Int32(UInt8(ascii: "C"))) != nil
                        if case .commit = command {} else { answers.failedBeforeCommit = answers.answeredFailure }
                    }
                    PQclear(answer)
                    continue
                }
                switch command {
                case .opening: PQclear(answer)
                case let .prepare(sql, name):
                    prepared[sql] = name
                    PQclear(answer)
                case let .queued(statement) where statement.madeAhead:
                    // A read made ahead keeps its answer; the count stays the last write's.
                    statement.receive(answer)
                case .queued:
                    answeredChanges = Self.rowsChanged(answer)
                    PQclear(answer)
                case .final:
                    answeredChanges = Self.rowsChanged(answer)
                    answers.final = answer
                case .commit:
                    // A transaction that had failed answers COMMIT with the tag ROLLBACK, not an error: nothing was kept.
                    if PQcmdStatus(answer).map({ String(cString: $0) }) == "COMMIT" {
                        answers.committed = true
                    } else if answers.failure == nil {
                        answers.failure = .store("PostgreSQL commit: the transaction had failed, and was rolled back")
                        answers.answeredFailure = true
                    }
                    PQclear(answer)
                }
            }
            if PQstatus(handle) == CONNECTION_OK {
                // The pipeline's end (PGRES_PIPELINE_SYNC).
                while let result = PQgetResult(handle) {
                    let synced = PQresultStatus(result) == PGRES_PIPELINE_SYNC
                    PQclear(result)
                    if synced { break }
                }
            }
        } else {
            answers.failure = answers.failure ?? PostgresError.error(nil, handle, during: "pipeline")
        }
        if PQexitPipelineMode(handle) != 1 { needsReset = true }
        if answers.failure != nil {
            PQclear(answers.final)
            answers.final = nil
            answers.committed = false
            if PQstatus(handle) != CONNECTION_OK { needsReset = true }
        }
        return answers
    }

    /// The rows a command's `answer` says it changed (PQcmdTuples' decimal digits; 0 when it names none), read in place.
    private static func rowsChanged(_ answer: OpaquePointer) -> Int {
        guard var digit = PQcmdTuples(answer) else { return 0 }
        var count = 0
        while digit.pointee >= 48, digit.pointee <= 57, count < Int.max / 10 - 9 {
            count = count * 10 + Int(digit.pointee - 48)
            digit += 1
        }
        return count
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
        if inFlight != nil { try? receiveInFlight() }
        queued.removeAll()
        queuedFailure = nil
        roundTrips += 1
        let result = PQexec(handle, "ROLLBACK")
        defer { PQclear(result) }
        if result.map({ PQresultStatus($0) }) != PGRES_COMMAND_OK { needsReset = true }
    }
}
