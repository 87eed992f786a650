import TenderCore

/// The store's tables and their migrations, tracked by PRAGMA user_version.
enum Schema {
    /// The schema version this build writes.
    static let version: Int64 = 1

    static let migrations: [String] = [
        """
        CREATE TABLE contacts (
            id TEXT PRIMARY KEY,
            display_name TEXT NOT NULL,
            position INTEGER NOT NULL
        );
        CREATE TABLE handles (
            contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            label TEXT NOT NULL,
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (contact_id, id)
        );
        CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            nickname TEXT,
            kind TEXT NOT NULL,
            currency TEXT NOT NULL,
            balance_minor INTEGER NOT NULL CHECK (balance_minor >= 0),
            is_default INTEGER NOT NULL,
            position INTEGER NOT NULL
        );
        CREATE TABLE payments (
            sequence INTEGER PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE,
            fingerprint TEXT NOT NULL,
            account_id TEXT NOT NULL,
            payee_contact_id TEXT NOT NULL,
            payee_handle_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
            created_at_ms INTEGER NOT NULL,
            record TEXT NOT NULL
        );
        """
    ]

    /// Brings the database to ``version``, once, even when several processes open it together.
    static func migrate(_ db: Database) throws(TenderError) {
        try db.writeTransaction { () throws(TenderError) in
            let statement = try db.statement("PRAGMA user_version")
            let current = try statement.step() ? statement.int64(0) : 0
            _ = try statement.step()
            guard current <= version else {
                throw .store("the store has schema version \(current); this Tender knows up to \(version)")
            }
            for index in Int(current)..<Int(version) { try db.execute(migrations[index]) }
            if current < version { try db.execute("PRAGMA user_version = \(version)") }
        }
    }
}
