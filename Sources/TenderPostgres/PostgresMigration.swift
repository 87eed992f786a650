// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderStore

/// Moves one person's SQLite store (a home, or tenderd's `STATE/UID/`) into the PostgreSQL store, row for row:
/// the same records and JWS, the same keys (their files stay in the home, which tenderd's `--state` keeps), the
/// directory, audit, throttle and the rest. Verified before (the SQLite ledger, which must be the one read), inside the
/// copying transaction (the ledger it holds is the one read, record for record), and after its commit (the PostgreSQL
/// ledger verifies from the source's first key and begins with the migrated one, against a checkpoint the source signed: a
/// tenderd may append for the person as soon as it commits). One transaction: a failure leaves the database as it was.
public enum PostgresMigration {
    /// Every table the store keeps and the columns copied (the `uid` is the person's, set by the connection).
    /// `signing_keys` is copied in the order SQLite recorded the keys (its rowid), which PostgreSQL numbers again.
    static let tables: [(name: String, columns: [String], order: String)] = [
        ("contacts", ["id", "display_name", "position"], "id"),
        ("handles", ["contact_id", "id", "label", "kind", "value", "position"], "contact_id, id"),
        (
            "accounts",
            ["id", "nickname", "kind", "currency", "balance_minor", "is_default", "position", "organization", "points", "miles", "balance_anchor"],
            "id"
        ),
        (
            "ledger",
            [
                "sequence", "type", "jws", "hash", "idempotency_key", "fingerprint", "account_id", "payee_contact_id", "payee_handle_id",
                "currency", "amount_minor", "effects", "subject", "status", "seal",
            ],
            "sequence"
        ),
        ("signing_keys", ["kid", "public_key", "created_at_ms", "active"], "rowid"),
        ("auth_throttle", ["\"user\"", "failures", "next_allowed_ms"], "\"user\""),
        ("known_devices", ["device", "first_seen_ms"], "device"),
        // Without its id: PostgreSQL numbers the rows again, in the same order (ids are shared by every person).
        ("audit", ["at_ms", "\"user\"", "event", "intent", "detail"], "id"),
        ("bill_payees", ["id", "organization", "nickname", "account_number", "position"], "id"),
        ("bills", ["id", "bill_payee_id", "document", "position"], "id"),
        ("vocabulary", ["kind", "document"], "kind"),
        ("settings", ["key", "value"], "key"),
        ("shortcuts", ["phrase_key", "document", "position"], "phrase_key"),
        ("resigned", ["sequence", "at_ms"], "sequence"),
        ("paid_parties", ["party", "first_sequence"], "party"),
        (
            "claims", ["idempotency_key", "fingerprint", "body", "state", "code", "token", "owner", "claimed_at_ms", "seal_kid", "seal"],
            "idempotency_key"
        ),
    ]

    /// One copied value: NULL, text (integers too: PostgreSQL reads them as the column's type), or bytes.
    enum Value: Sendable {
        case null
        case text(String)
        case bytes([UInt8])

        /// The value as a statement argument.
        var argument: (any StoreBindable)? {
            switch self {
            case .null: return nil
            case let .text(text): return text
            case let .bytes(bytes): return bytes
            }
        }
    }

    /// What a migration moved and found.
    public struct Result: Sendable {
        /// Rows copied, by table.
        public let rows: [(table: String, count: Int)]
        /// The migrated ledger's report, verified in SQLite before (its length and head are what PostgreSQL holds first).
        public let report: LedgerVerifier.Report
        /// The PostgreSQL ledger's length when verified after the commit: `report.count`, or more when a tenderd appended
        /// for the person in between (it begins with the migrated records all the same).
        public let verifiedCount: Int64
    }

    /// Copies `source` (open for writing, so records committed without their stored signature are signed first)
    /// into `target`, the same person's PostgreSQL store, which must hold no row at all yet. Throws
    /// ``TenderError/ledgerTampered(_:)`` when the source does not verify, ``TenderError/invalidArgument(_:)`` when
    /// the target already holds any row (of any table) or the source keeps rows older than schema 7 (a fingerprint as text),
    /// ``TenderError/store(_:)`` when a copy fails (nothing is kept) or the copy does not verify the same.
    public static func migrate(from source: SQLiteStore, to target: SQLiteStore) throws(TenderError) -> Result {
        try migrate(from: source, to: target, committed: {})
    }

    /// ``migrate(from:to:)``, running `committed` right after the copy's COMMIT (where a tenderd serving the person may
    /// append: the tests append there).
    static func migrate(
        from source: SQLiteStore, to target: SQLiteStore, committed: () throws(TenderError) -> Void
    ) throws(TenderError) -> Result {
        let before = try source.verify(checkpoint: nil, trustedKeys: nil)
        // Signed by the source's key at its length now, so the PostgreSQL ledger is verified to begin with this one
        // however long it has grown after the commit (none for an empty ledger: it begins every ledger). A source that cannot
        // sign one (its key file is gone) is still migrated, and its copy must then verify as exactly this ledger.
        let checkpoint = before.count > 0 ? try? source.checkpoint() : nil
        // The source's first key, the root its ledger was verified from: the copy is verified from it too, not from the
        // first row of PostgreSQL's signing_keys, which any writer of the database may change after the COMMIT (and, the
        // ledger being empty, sign a ledger of its own from a key it recorded first). A source with no key and no record
        // must stay exactly that.
        let root = try source.publicKeys().first.map { [$0.keyID: $0.publicKey] }
        let mayGrow = checkpoint != nil || (before.count == 0 && root != nil)
        let rows = try source.read(scan: true) { (db) throws(TenderError) -> [(String, [[Value]])] in
            var all: [(String, [[Value]])] = []
            for table in tables {
                let columns = table.columns
                let copied = try db.statement("SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.order)").rows {
                    (row) throws(TenderError) -> [Value] in
                    var values: [Value] = []
                    for (index, name) in columns.enumerated() {
                        let column = Int32(index)
                        if row.isNull(column) {
                            values.append(.null)
                        } else if row.isBlob(column) {
                            values.append(.bytes(row.blob(column)))
                        } else if name == "fingerprint" && table.name == "ledger" {
                            throw .invalidArgument(
                                "the store keeps ledger rows written before schema 7 (a fingerprint as text), which PostgreSQL keeps as "
                                    + "a digest only: they are not migrated")
                        } else {
                            values.append(row.text(column).map { .text($0) } ?? .null)
                        }
                    }
                    return values
                }
                all.append((table.name, copied))
            }
            return all
        }
        // The ledger read must be the one verified (nothing appended or changed in between).
        let ledger = rows.first { $0.0 == "ledger" }?.1 ?? []
        let jwsColumn = 2
        let hashColumn = 3
        guard Int64(ledger.count) == before.count, ledger.isEmpty || ledger.last.map({ Self.text($0[hashColumn]) }) == before.headHash else {
            throw .store(
                "the SQLite ledger changed while it was migrated (\(before.count) records verified, \(ledger.count) read): nothing was "
                    + "migrated; stop what writes to it and run again")
        }
        let copy = rows
        try target.write { (db) throws(TenderError) in
            // Under the person's lock (two migrations of one person run one after the other): a person who has anything
            // at all in PostgreSQL (a ledger, or only an audit entry, a throttle row, a key, a claim, a directory) was
            // served there already, and none of it is replaced.
            let held = try heldRows(db)
            guard held.isEmpty else {
                let named = held.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
                throw .invalidArgument("this person's PostgreSQL store already holds rows (\(named)): nothing was migrated")
            }
            for (name, values) in copy {
                guard let table = tables.first(where: { $0.name == name }) else { continue }
                let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let sql = "INSERT INTO \(name) (\(table.columns.joined(separator: ", "))) VALUES (\(placeholders))"
                for row in values { try db.statement(sql, row.map(\.argument)).run() }
            }
            // Before the COMMIT, under the person's lock: the ledger this transaction holds is the one read, record for record.
            let kept = try db.statement("SELECT sequence, jws FROM ledger ORDER BY sequence").rows { (row) throws(TenderError) in
                (row.int64(0), row.text(1) ?? "")
            }
            let matches = kept.count == ledger.count && zip(kept, ledger).allSatisfy { row, read in
                String(row.0) == Self.text(read[0]) && row.1 == Self.text(read[jwsColumn])
            }
            guard matches else {
                throw .store("the ledger copied into PostgreSQL (\(kept.count) records) is not the one read (\(ledger.count)): nothing was migrated")
            }
        }
        try committed()
        // After the COMMIT a tenderd may append for the person: the ledger must verify, and begin with the migrated one
        // (the source's checkpoint), its keys first among those that signed; a longer one is this one and what followed.
        let after: LedgerVerifier.Report
        do throws(TenderError) { after = try target.verify(checkpoint: checkpoint, trustedKeys: root) } catch {
            // Said as found after the COMMIT: the copy is kept (a run again leaves the person alone), whatever was changed.
            guard case let .ledgerTampered(message) = error else { throw error }
            throw .ledgerTampered("\(message) (found after the copy was committed: the rows were kept)")
        }
        guard after.count >= before.count, (after.count > before.count && mayGrow) || after.headHash == before.headHash,
            after.keyIDs.starts(with: before.keyIDs)
        else {
            throw .store(
                "the migrated ledger verifies as \(after.count) records with head \(after.headHash), not \(before.count) with head "
                    + "\(before.headHash) (the rows were kept)")
        }
        return Result(rows: rows.map { ($0.0, $0.1.count) }, report: before, verifiedCount: after.count)
    }

    /// A copied value as text (nil for NULL or bytes).
    private static func text(_ value: Value) -> String? {
        if case let .text(text) = value { return text }
        return nil
    }

    /// Throws ``TenderError/invalidArgument(_:)`` when the person `uid` has any row in the database of `pool` (read
    /// before their store is opened, so a person already served there is not touched at all; ``migrate(from:to:)``
    /// checks again under their lock). A database without tenderd's schema yet holds nobody's rows.
    public static func requireNothingHeld(pool: PostgresPool, uid: UInt32) throws(TenderError) {
        let db = PostgresDatabase(pool: pool, uid: uid)
        let held = try db.readTransaction { () throws(TenderError) -> [(table: String, count: Int64)] in
            guard try PostgresSchema.holds(db, "SELECT to_regclass('tender.claims') IS NOT NULL") else { return [] }
            return try heldRows(db)
        }
        guard held.isEmpty else {
            let named = held.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
            throw .invalidArgument("this person's PostgreSQL store already holds rows (\(named)): nothing was migrated")
        }
    }

    /// The tables holding rows of the transaction's person in `db`, with their counts (one round trip).
    static func heldRows(_ db: any StoreDatabase) throws(TenderError) -> [(table: String, count: Int64)] {
        // reuse_grants has no SQLite counterpart (a home keeps its budgets in memory), so it is checked, never copied.
        let names = tables.map(\.name) + ["reuse_grants"]
        let counts = names.map { "SELECT '\($0)', count(*) FROM \($0)" }.joined(separator: " UNION ALL ")
        let rows = try db.statement(counts).rows { (row) throws(TenderError) in (table: row.text(0) ?? "", count: row.int64(1)) }
        return rows.filter { $0.count > 0 }
    }
}
