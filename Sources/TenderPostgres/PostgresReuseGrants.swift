// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderStore

/// The reuse budgets of one person on the PostgreSQL store (``ReuseGrants``), shared by every tenderd on the database:
/// an authentication through one daemon covers a later payment through another, within one budget, as on one machine.
/// Budgets are rows of `tender.reuse_grants` (``PostgresSchema``, row-level security as every table), spent inside the
/// person's write transaction (the advisory lock on the person), so two daemons never spend the same budget twice; the
/// window is read on the database server's clock, one for every daemon. Thread-safe (a transaction per call).
final class PostgresReuseGrants: ReuseGrants {
    private let pool: PostgresPool
    private let uid: UInt32

    /// The budgets of the person `uid` in the database of `pool`.
    init(pool: PostgresPool, uid: UInt32) {
        self.pool = pool
        self.uid = uid
    }

    /// The table, made by the schema's version 3 (again without harm), with tenderd's two policies (version 4's restrictive one too).
    static let creation = [
        """
        CREATE TABLE IF NOT EXISTS reuse_grants (uid bigint NOT NULL DEFAULT current_setting('tender.uid')::bigint,
            id bigint GENERATED ALWAYS AS IDENTITY, scope text NOT NULL, "user" text NOT NULL, intent text NOT NULL, payee text NOT NULL,
            device text, currency text, remaining_minor bigint CHECK (remaining_minor IS NULL OR remaining_minor >= 0),
            remaining_count bigint NOT NULL CHECK (remaining_count >= 0), expires_at timestamptz NOT NULL, PRIMARY KEY (uid, id))
        """,
        "ALTER TABLE reuse_grants ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE reuse_grants FORCE ROW LEVEL SECURITY",
        // Made again by a schema whose version row was set back (the table kept): the same policy, once.
        "DROP POLICY IF EXISTS person ON reuse_grants",
        "DROP POLICY IF EXISTS person_only ON reuse_grants",
    ] + PostgresSchema.policies("reuse_grants")

    func spendGrant(
        scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?
    ) throws(TenderError) -> (remaining: Money?, count: Int)? {
        let db = PostgresDatabase(pool: pool, uid: uid)
        let left = try db.writeTransaction { () throws(TenderError) -> (currency: String?, minor: Int64, count: Int64)? in
            let spent = try db.statement(
                """
                UPDATE reuse_grants SET remaining_count = remaining_count - 1, remaining_minor = remaining_minor - ?
                WHERE id = (SELECT id FROM reuse_grants WHERE scope = ? AND "user" = ? AND intent = ? AND payee = ?
                    AND device IS NOT DISTINCT FROM ? AND remaining_count > 0 AND expires_at > clock_timestamp()
                    AND ((?::text IS NULL AND currency IS NULL) OR (currency = ? AND remaining_minor >= ?)) ORDER BY id LIMIT 1)
                RETURNING currency, remaining_minor, remaining_count
                """,
                [amount?.minorUnits, scope, user, intent, payeeID, device, amount?.currency.code, amount?.currency.code, amount?.minorUnits])
            guard try spent.step() else { return nil }
            let row = (currency: spent.text(0), minor: spent.int64(1), count: spent.int64(2))
            _ = try spent.step()
            return row
        }
        guard let left else { return nil }
        let remaining = try left.currency.map { code throws(TenderError) in try Money(minorUnits: left.minor, currency: try Currency(code: code)) }
        return (remaining, Int(left.count))
    }

    func recordGrant(
        scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?, count: Int, seconds: Int64
    ) throws(TenderError) {
        let db = PostgresDatabase(pool: pool, uid: uid)
        try db.writeTransaction { () throws(TenderError) in
            try db.statement("DELETE FROM reuse_grants WHERE expires_at <= clock_timestamp()").run()
            try db.statement(
                """
                INSERT INTO reuse_grants (scope, "user", intent, payee, device, currency, remaining_minor, remaining_count, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp() + make_interval(secs => ?::bigint))
                """,
                [scope, user, intent, payeeID, device, amount?.currency.code, amount?.minorUnits, Int64(count), seconds]
            ).run()
        }
    }
}

/// The reuse budgets of a person on the PostgreSQL store, for tenderd's gates (``PostgresReuseGrants``).
extension PostgresPool {
    /// The budgets of the person `uid`, shared with every tenderd on this database.
    public func reuseGrants(uid: UInt32) -> any ReuseGrants { PostgresReuseGrants(pool: self, uid: uid) }
}
