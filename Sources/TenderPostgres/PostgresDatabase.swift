// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
import TenderCore
import TenderStore

/// One person's view of the database, for their store: each transaction borrows a connection of the
/// daemon's ``PostgresPool``, names the person in it (`tender.uid`, for that transaction only), so
/// row-level security (``PostgresSchema``) shows it that person's rows only, and gives it back at its end.
/// Write transactions first take a transaction-scoped advisory lock on the person, so the hash chain stays
/// one line across every tenderd on the database. Not thread-safe: its owner serializes use.
final class PostgresDatabase: StoreDatabase {
    let pool: PostgresPool
    private let uid: UInt32
    /// The connection of the transaction running, if any.
    private var current: PostgresConnection?
    /// Rows changed by the last statement run (in the running transaction, its connection's count).
    var changes: Int { current?.changes ?? lastChanges }
    /// Rows changed by the last statement of the last transaction.
    private var lastChanges = 0

    /// The person `uid`'s view through `pool`; connects nothing yet.
    init(pool: PostgresPool, uid: UInt32) {
        self.pool = pool
        self.uid = uid
    }

    /// The running transaction's connection; the store runs every statement in one.
    private func connection() throws(TenderError) -> PostgresConnection {
        guard let current else { throw .internal("a PostgreSQL statement outside a transaction") }
        return current
    }

    func execute(_ sql: String) throws(TenderError) {
        try connection().execute(sql)
    }

    func statement(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> PostgresStatement {
        let connection = try connection()
        return try connection.statement(sql, arguments)
    }

    /// The read sent now, in the transaction's next round trip, with what the connection queued before it and the reads
    /// made after it; its first step waits for that round trip (``PostgresConnection/queueRead(_:)``).
    func ahead(_ sql: String, _ arguments: [(any StoreBindable)?]) throws(TenderError) -> AheadRead {
        let connection = try connection()
        let statement = try connection.statement(sql, arguments)
        try connection.queueRead(statement)
        return AheadRead { () throws(TenderError) -> any StoreStatement in statement }
    }

    /// True: ``sendAhead()`` sends the transaction's first round trip before its answers are needed.
    var sendsAhead: Bool { true }

    /// Sends the running transaction's opening and reads made ahead now; their answers are read at the first step of one
    /// of them, or by whatever uses the connection next (``PostgresConnection/sendAhead()``).
    func sendAhead() throws(TenderError) {
        try connection().sendAhead()
    }

    /// The store's SQL in PostgreSQL's terms (``PostgresConnection/translate(_:)``).
    static func translate(_ sql: String) -> (text: String, parameters: Int) { PostgresConnection.translate(sql) }

    /// How a transaction that writes begins: read committed, whatever the database's or role's owner made the default
    /// (`ALTER DATABASE ... SET default_transaction_isolation`). Its lock is taken by its first statement, which takes a
    /// repeatable read transaction's snapshot before waiting for the lock: the transaction would then miss what the
    /// holder committed (a payment of the same idempotency key, the chain's head) and fail where it should find it.
    /// Read write too, whatever `default_transaction_read_only` says.
    static let writeBegin = "BEGIN ISOLATION LEVEL READ COMMITTED, READ WRITE"

    func writeTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: Self.writeBegin, lock: (PostgresSchema.lockNamespace, Int32(bitPattern: uid)), body)
    }

    func lazyWriteTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: Self.writeBegin, lock: (PostgresSchema.lockNamespace, Int32(bitPattern: uid)), lazy: true, body)
    }

    func readTransaction<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", lock: nil, body)
    }

    /// True while the pool's database has the payment function (``PostgresSchema/payment``).
    var paysPrepared: Bool { pool.paysWithFunction }

    /// ` FOR SHARE`: the batch's keys read holds their rows until COMMIT, as the payment function's key check does.
    var keysReadLock: String { " FOR SHARE" }

    /// The payment function's call, each argument bound and cast to the exact type the function takes, by pg_catalog's
    /// names, as ``openingCall`` (no overload matches better).
    static let paymentCall =
        "SELECT tender.\(PostgresSchema.paymentName)(?::pg_catalog.int8, ?::pg_catalog.int4, ?::pg_catalog.int4, ?::pg_catalog.text, "
        + "?::pg_catalog.bytea, ?::pg_catalog.int8, ?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.text, "
        + "?::pg_catalog.bytea, ?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.int8, "
        + "?::pg_catalog.text[], ?::pg_catalog.int8[], ?::pg_catalog.text[], ?::pg_catalog.text, ?::pg_catalog.bool, "
        + "?::pg_catalog.int8[], ?::pg_catalog.text[], ?::pg_catalog.text[], ?::pg_catalog.text[], ?::pg_catalog.text[])"

    /// Pays `payment` in one round trip: BEGIN, the payment function's call (``PostgresSchema/payment``: it opens the
    /// transaction for the person, takes their lock and checks before it writes) and COMMIT, in one pipeline. Answers what
    /// the function answered once COMMIT is; ``PreparedPaymentAnswer/unsupported`` when the function is missing (dropped
    /// under the daemon: SQLSTATE 42883 naming it, nothing kept; the pool stops calling it until the next store open makes
    /// it again). Throws ``TenderError/outcomeUnknown(_:)`` when the connection broke before COMMIT was answered, else the
    /// first error (nothing kept).
    func payPrepared(_ payment: PreparedPayment) throws(TenderError) -> PreparedPaymentAnswer {
        guard pool.paysWithFunction else { return .unsupported }
        return try onConnection { (connection) throws(TenderError) -> PreparedPaymentAnswer in
            let call = try connection.statement(
                Self.paymentCall,
                [Int64(uid), Int64(PostgresSchema.lockNamespace), Int64(Int32(bitPattern: uid)), payment.signerKeyID, payment.signerPublicKey,
                 payment.previous.sequence, payment.previous.hash, payment.jws, payment.hash, payment.idempotencyKey, payment.fingerprintDigest,
                 payment.accountID, payment.payeeContactID, payment.payeeHandleID, payment.currency, payment.amountMinor,
                 Self.arrayLiteral(payment.movements.map(\.accountID)), "{" + payment.movements.map { String($0.delta) }.joined(separator: ",") + "}",
                 Self.arrayLiteral(payment.movements.map(\.currency.code)), payment.paidParty, payment.releasesClaim ? "true" : "false",
                 "{" + payment.audit.map { String($0.at) }.joined(separator: ",") + "}", Self.arrayLiteral(payment.audit.map(\.user)),
                 Self.arrayLiteral(payment.audit.map(\.event)), Self.arrayLiteral(payment.audit.map(\.intent)),
                 Self.arrayLiteral(payment.audit.map(\.detail))])
            // BEGIN only: the function opens the transaction for the person itself.
            connection.begin([Self.writeBegin])
            do throws(TenderError) {
                try connection.queueRead(call)
                try connection.commit()
            } catch {
                if error.message.contains("SQLSTATE 42883"), error.message.contains(PostgresSchema.paymentName) {
                    pool.notePaymentFunction(false)
                    return .unsupported
                }
                throw error
            }
            guard try call.step(), let answer = call.text(0) else { throw .store("PostgreSQL: the payment function answered nothing") }
            return answer == "paid" ? .paid : .unfit(answer)
        }
    }

    /// Runs `body` on a connection borrowed from the pool for one transaction (none may be running on this database), its
    /// session opened again first if it broke; the connection goes back, and its change count is kept, whatever `body` did.
    private func onConnection<T>(_ body: (PostgresConnection) throws(TenderError) -> T) throws(TenderError) -> T {
        guard current == nil else { throw .internal("a PostgreSQL transaction inside another") }
        let connection = try pool.borrow()
        current = connection
        defer {
            lastChanges = connection.changes
            current = nil
            pool.giveBack(connection)
        }
        try connection.reconnectIfBroken()
        return try body(connection)
    }

    /// A PostgreSQL array literal of `texts`, each element quoted (a backslash or double quote in it escaped), built in one
    /// pass over their UTF-8 bytes (both are ASCII, which no byte of a multi-byte character equals), with no string search.
    static func arrayLiteral(_ texts: [String]) -> String {
        let backslash = UInt8(ascii: "\\"), quote = UInt8(ascii: "\"")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(texts.reduce(2) { $0 + $1.utf8.count + 3 })
        bytes.append(UInt8(ascii: "{"))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(quote)
            for byte in text.utf8 {
                if byte == backslash || byte == quote { bytes.append(backslash) }
                bytes.append(byte)
            }
            bytes.append(quote)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A transaction failed because the opening function is gone (dropped under the daemon: SQLSTATE 42883, undefined
    /// function, naming it): the pool's next transactions open with statements of their own, and the next store open
    /// makes the function again (``PostgresSchema/migrate(_:)``).
    private func forgetOpeningIfMissing(_ error: TenderError) {
        if error.message.contains("SQLSTATE 42883"), error.message.contains(PostgresSchema.openingName) { pool.forgetOpeningFunction() }
    }

    /// The opening function's call: the person, the lazy commit, the lock's two keys (NULL for none), each bound and cast to
    /// the type the function takes, by pg_catalog's names, so the call matches that signature exactly and no overload (made by
    /// a role given CREATE in the schema while the daemon runs) matches its arguments better.
    static let openingCall =
        "SELECT tender.\(PostgresSchema.openingName)(?::pg_catalog.int8, ?::pg_catalog.bool, ?::pg_catalog.int4, ?::pg_catalog.int4)"

    /// Fails the transaction (SQLSTATE 42501) unless row-level security holds the connection's role on every table of persons'
    /// rows (a superuser, a role with BYPASSRLS, a table whose row security is off or not forced): the opening's check while the
    /// opening function is missing (dropped under the daemon).
    static let refuseBypassingRole =
        "DO $$BEGIN IF \(PostgresSchema.rowSecurityHolds(PostgresSchema.personTables, reuseGrants: true)) IS NOT TRUE THEN "
        + "RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = \(PostgresSchema.rowSecurityMessage); END IF; END$$"

    /// Runs `body` between `begin` and COMMIT on a borrowed connection naming the person, first taking the
    /// transaction-scoped advisory `lock` when given (let go at COMMIT or ROLLBACK, and by the server when the
    /// connection dies). A COMMIT whose answer is lost leaves the outcome unknown: the error says so
    /// (``TenderError/outcomeUnknown(_:)``), and the same idempotency key finds the payment if it was kept.
    /// Round trips: the opening goes with the body's first statement whose answer is read (a transaction that runs none
    /// is never opened); statements run for their effect only go with the next one, or with COMMIT
    /// (``PostgresStatement/run()``), so a transaction of writes only is one round trip; reads made ahead
    /// (``ahead(_:_:)``) go together with the first of them stepped; a read-only transaction's COMMIT
    /// is not waited for (``PostgresConnection/commitWithoutWaiting()``).
    /// `bootstrap`: the schema's own migration, which runs before the opening function exists (``PostgresSchema/opening``):
    /// it opens with the same settings as statements of their own, and checks the role with its body's first statement.
    func transaction<T>(
        begin: String, lock: (Int32, Int32)?, lazy: Bool = false, bootstrap: Bool = false, _ body: () throws(TenderError) -> T
    ) throws(TenderError) -> T {
        return try onConnection { (connection) throws(TenderError) -> T in
            // The opening: BEGIN, the person for this transaction only (after it the connection reads nobody's rows), the
            // lazy commit, the person's lock. Only integers and booleans of tenderd's own are in it. The role is checked again in
            // every transaction: one made a superuser or given BYPASSRLS after tenderd connected, or a connection opened
            // again on a server where it is one, would see every person's rows.
            let withFunction = !bootstrap && pool.opensWithFunction
            if withFunction {
                // The same in one statement of a function of tenderd's schema, compiled once per connection (PostgresSchema.opening),
                // its call prepared once per connection too (parsed and planned once, not in every transaction), its arguments bound
                // and each cast to the type the function takes (``openingCall``).
                let call = try connection.statement(
                    Self.openingCall,
                    [Int64(uid), lazy ? "true" : "false", lock.map { Int64($0.0) as any StoreBindable }, lock.map { Int64($0.1) as any StoreBindable }])
                connection.begin([begin], call: call)
            } else {
                var settings = "SELECT set_config('tender.uid', '\(uid)', true)"
                if lazy { settings += ", set_config('synchronous_commit', 'off', true)" }
                if let lock { settings += ", pg_advisory_xact_lock(\(lock.0), \(lock.1))" }
                // The migration checks the role with its first statement (PostgresSchema.migrate), read before anything else runs.
                connection.begin(bootstrap ? [begin, settings] : [begin, Self.refuseBypassingRole, settings])
            }
            let result: T
            do throws(TenderError) { result = try body() } catch {
                // A failure answering `changes` (which cannot throw) is the transaction's first: it is thrown rather than what
                // the store concluded from a count of 0.
                let first = connection.queuedFailure ?? error
                connection.abandon()
                if withFunction { forgetOpeningIfMissing(first) }
                throw first
            }
            guard connection.isOpened else {
                connection.abandon()
                return result
            }
            if begin.hasSuffix("READ ONLY") {
                do throws(TenderError) { try connection.commitWithoutWaiting() } catch {
                    connection.abandon()
                    throw error
                }
                return result
            }
            do throws(TenderError) {
                // Row security checked again before a write commits, sent with COMMIT (no round trip more): the opening's check
                // takes no lock on a table, so an owner's ALTER TABLE committed between it and a statement's first use of that
                // table took row security off for that statement. Every table written now holds its lock until COMMIT; the
                // opening function with no lock fails the transaction (42501) if one of them lost its row security.
                if withFunction {
                    try connection.statement(Self.openingCall, [Int64(uid), lazy ? "true" : "false", nil, nil]).run()
                }
                try connection.commit()
            } catch {
                if withFunction { forgetOpeningIfMissing(error) }
                throw error
            }
            return result
        }
    }
}
