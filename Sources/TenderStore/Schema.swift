// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The store's tables and their migrations, tracked by PRAGMA user_version.
enum Schema {
    /// The schema version this build writes.
    static let version: Int64 = 12

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
        CREATE TABLE ledger (
            sequence INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            jws TEXT NOT NULL,
            hash TEXT NOT NULL,
            idempotency_key TEXT UNIQUE,
            fingerprint TEXT,
            account_id TEXT,
            payee_contact_id TEXT,
            payee_handle_id TEXT,
            currency TEXT,
            amount_minor INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
            CHECK (type <> 'payment' OR (idempotency_key IS NOT NULL AND fingerprint IS NOT NULL AND amount_minor IS NOT NULL))
        );
        CREATE TABLE signing_keys (
            kid TEXT PRIMARY KEY,
            public_key BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL,
            active INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX one_active_signing_key ON signing_keys (active) WHERE active = 1;
        CREATE TABLE auth_throttle (
            user TEXT PRIMARY KEY,
            failures INTEGER NOT NULL,
            next_allowed_ms INTEGER NOT NULL
        );
        CREATE TABLE known_devices (
            device TEXT PRIMARY KEY,
            first_seen_ms INTEGER NOT NULL
        );
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            user TEXT NOT NULL,
            event TEXT NOT NULL,
            intent TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        """,
        // 2: the whole Payments domain: account details, bill payees, bills, vocabulary, the signed-in flag.
        """
        ALTER TABLE accounts ADD COLUMN organization TEXT;
        ALTER TABLE accounts ADD COLUMN points INTEGER;
        ALTER TABLE accounts ADD COLUMN miles INTEGER;
        UPDATE accounts SET kind = 'saving' WHERE kind = 'savings';
        UPDATE accounts SET kind = 'unknown' WHERE kind = 'other';
        CREATE TABLE bill_payees (
            id TEXT PRIMARY KEY,
            organization TEXT NOT NULL,
            nickname TEXT,
            account_number TEXT,
            position INTEGER NOT NULL
        );
        CREATE TABLE bills (
            id TEXT PRIMARY KEY,
            bill_payee_id TEXT NOT NULL REFERENCES bill_payees(id) ON DELETE CASCADE,
            document TEXT NOT NULL,
            position INTEGER NOT NULL
        );
        CREATE TABLE vocabulary (
            kind TEXT PRIMARY KEY,
            document TEXT NOT NULL
        );
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
        // 3: shortcuts, the phrases a person registered for prefilled intents.
        """
        CREATE TABLE shortcuts (
            phrase_key TEXT PRIMARY KEY,
            document TEXT NOT NULL,
            position INTEGER NOT NULL
        );
        """,
        // 4: later status changes. A payment keeps what it did (effects, JSON) so a change can complete or undo it;
        // a status entry names its payment (subject) and the status it sets.
        """
        ALTER TABLE ledger ADD COLUMN effects TEXT;
        ALTER TABLE ledger ADD COLUMN subject INTEGER;
        ALTER TABLE ledger ADD COLUMN status TEXT;
        CREATE INDEX ledger_subject ON ledger (subject, sequence) WHERE subject IS NOT NULL;
        """,
        // 5: each account's balance as last set by the directory, signed (a JWS naming the ledger's length then),
        // so verify can re-derive the balance from it and the ledger.
        """
        ALTER TABLE accounts ADD COLUMN balance_anchor TEXT;
        """,
        // 6: a payment is committed before its signature is stored (the flush and the signing overlap). Until then its
        // jws holds the signing input and a dot, and seal a MAC of it made with the signing key; resigned lists the
        // records another open had to sign again (their committing process ended before storing the signature).
        """
        ALTER TABLE ledger ADD COLUMN seal TEXT;
        CREATE INDEX ledger_unsigned ON ledger (sequence) WHERE seal IS NOT NULL;
        CREATE TABLE resigned (
            sequence INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL
        );
        """,
        // 7: a new payment row keeps its fingerprint as the SHA-256 digest (a BLOB) and its effects only in the signed
        // payload, so two rows share a page (StoredFingerprint). Rows written before keep both texts; nothing is rewritten.
        // The version only keeps older builds, which would read a digest as text, from writing or verifying the store.
        "SELECT 1;",
        // 8: the parties paid (a handle's kind and value), for the newPayee rule: "paid before" no longer follows a contact
        // id whose handle a directory edit can point elsewhere. Nothing is carried over from older rows (they name a
        // contact and handle id, not where the money went): after the upgrade every payee is new once, failing closed.
        """
        CREATE TABLE IF NOT EXISTS paid_parties (
            party TEXT PRIMARY KEY,
            first_sequence INTEGER NOT NULL
        );
        """,
        // 9: the directory signs balances, currencies and removed accounts as chained `balances` ledger entries
        // (BalanceAnchors), and a testing-mode engine a `testing_mode` entry; balance_anchor is no longer written.
        // Nothing is rewritten: an account signed beside it by an earlier version is checked against it until the
        // directory sets it again. The version keeps older builds, which would take the new entries' accounts for
        // unsigned ones and write balances the chain does not hold, from writing or verifying the store.
        "SELECT 1;",
        // 10: a claim on an idempotency key, committed before a host is asked to move money under it, so the host is
        // asked once across threads and processes (SQLiteStore+Claims). A claim leaves with its payment's row (same
        // transaction); `failed` keeps the code the host answered; a `calling` claim nobody holds is an unknown outcome.
        """
        CREATE TABLE IF NOT EXISTS claims (
            idempotency_key TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL,
            body TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('calling', 'failed')),
            code INTEGER,
            token TEXT NOT NULL UNIQUE,
            owner TEXT NOT NULL,
            claimed_at_ms INTEGER NOT NULL
        );
        """,
        // 11: new payment records are written in format 2 (RecordFormat: "v": 2, the fingerprint a SHA-256 digest). Nothing
        // is rewritten: format-1 records keep verifying. The version keeps older builds, which write format 1, from appending
        // format-1 records after format-2 ones, which verify refuses (a ledger never goes back to format 1).
        "SELECT 1;",
        // 12: each claim is sealed when written (ClaimSeal: an Ed25519 signature by the signing key, whose kid is kept
        // beside it), and settled only when its seal checks, so a claim written into the store without the key is never
        // signed as a record. Claims an earlier (unreleased) build left carry no seal: settling them is refused.
        """
        ALTER TABLE claims ADD COLUMN seal_kid TEXT;
        ALTER TABLE claims ADD COLUMN seal TEXT;
        """,
    ]

    /// Brings the database to ``version``, once, even when several processes open it together.
    static func migrate(_ db: Database) throws(TenderError) {
        // A store already at this version (every open but the first after an upgrade) is only read: no write lock, and
        // no transaction of its own (the one statement reads the header in SQLite's own read transaction).
        if try knownVersion(db) == version { return }
        try db.writeTransaction { () throws(TenderError) in
            let current = try knownVersion(db)
            for index in Int(current)..<Int(version) { try db.execute(migrations[index]) }
            if current < version { try db.execute("PRAGMA user_version = \(version)") }
        }
    }

    /// The database's schema version; throws ``TenderError/store(_:)`` when
    /// this build does not know it. A read-only open reads any earlier version as it is.
    @discardableResult
    static func knownVersion(_ db: Database) throws(TenderError) -> Int64 {
        let statement = try db.statement("PRAGMA user_version")
        let current = try statement.step() ? statement.int64(0) : 0
        _ = try statement.step()
        guard current >= 0 else { throw .store("the store has an invalid schema version \(current)") }
        guard current <= version else {
            throw .store("the store has schema version \(current); this Tender knows up to \(version)")
        }
        return current
    }
}
