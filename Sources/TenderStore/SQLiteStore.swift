import Synchronization
internal import Glibc
import TenderCore

/// The embedded default store: one SQLite file, `tender.sqlite3` in the
/// home directory, holding the directory and the payments. Implements the
/// ``Directory`` and ``PaymentLedger`` ports.
///
/// Thread-safe: one connection serialized by a mutex. Several processes may
/// open the same home; writes take SQLite's write lock up front and wait for
/// it up to ``Database/busyTimeoutMilliseconds``.
public final class SQLiteStore: Directory, PaymentLedger {
    /// The store's file name inside the home.
    public static let fileName = "tender.sqlite3"

    private let database: Mutex<Database>

    /// Opens the store in `home`, creating the directory (0700) and the store when missing.
    /// Throws ``TenderError/home(_:)`` when the home cannot be used, ``TenderError/store(_:)`` otherwise.
    public init(home: String) throws(TenderError) {
        try HomeDirectory.prepare(home)
        let db = try Database(path: home + "/" + SQLiteStore.fileName)
        try Schema.migrate(db)
        database = Mutex(db)
    }

    private func withDatabase<T: Sendable>(_ body: (Database) throws(TenderError) -> T) throws(TenderError) -> T {
        try database.withLock { (db: inout Database) throws(TenderError) -> T in try body(db) }
    }

    // MARK: Directory

    public func contacts() throws(TenderError) -> [Contact] {
        try withDatabase { (db) throws(TenderError) in
            try db.readTransaction { () throws(TenderError) in
                let ids = try db.statement("SELECT id FROM contacts ORDER BY position, id").rows { $0.text(0) ?? "" }
                var found: [Contact] = []
                for id in ids { if let contact = try Self.contact(id: id, db) { found.append(contact) } }
                return found
            }
        }
    }

    public func contact(id: String) throws(TenderError) -> Contact? {
        try withDatabase { (db) throws(TenderError) in try db.readTransaction { () throws(TenderError) in try Self.contact(id: id, db) } }
    }

    private static func contact(id: String, _ db: Database) throws(TenderError) -> Contact? {
        let row = try db.statement("SELECT display_name FROM contacts WHERE id = ?", [id])
        guard try row.step(), let name = row.text(0) else { return nil }
        _ = try row.step()
        let handles = try db.statement("SELECT id, label, kind, value FROM handles WHERE contact_id = ? ORDER BY position", [id])
            .rows { (row) throws(TenderError) -> Handle in
                guard let kind = Handle.Kind(rawValue: row.text(2) ?? "") else { throw .store("a stored handle has an unknown type") }
                return Handle(id: row.text(0) ?? "", label: row.text(1) ?? "", kind: kind, value: row.text(3) ?? "")
            }
        return Contact(id: id, displayName: name, handles: handles)
    }

    public func accounts() throws(TenderError) -> [Account] {
        try withDatabase { (db) throws(TenderError) in
            try db.statement("SELECT id, nickname, kind, currency, balance_minor, is_default FROM accounts ORDER BY position, id")
                .rows { (row) throws(TenderError) -> Account in
                    guard let kind = Account.Kind(rawValue: row.text(2) ?? "") else { throw .store("a stored account has an unknown type") }
                    let balance = try Money(minorUnits: row.int64(4), currency: try Currency(code: row.text(3) ?? ""))
                    return Account(id: row.text(0) ?? "", nickname: row.text(1), kind: kind, balance: balance, isDefault: row.int64(5) != 0)
                }
        }
    }

    /// Adds or replaces every contact (with its handles) and account of `document`, in one transaction.
    public func importDirectory(_ document: DirectoryDocument) throws(TenderError) {
        try withDatabase { (db) throws(TenderError) in
            try db.writeTransaction { () throws(TenderError) in
                for contact in document.contacts {
                    try db.statement(
                        """
                        INSERT INTO contacts (id, display_name, position)
                        VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM contacts))
                        ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name
                        """, [contact.id, contact.displayName]
                    ).run()
                    try db.statement("DELETE FROM handles WHERE contact_id = ?", [contact.id]).run()
                    for (position, handle) in contact.handles.enumerated() {
                        try db.statement(
                            "INSERT INTO handles (contact_id, id, label, kind, value, position) VALUES (?, ?, ?, ?, ?, ?)",
                            [contact.id, handle.id, handle.label, handle.kind.rawValue, handle.value, position]
                        ).run()
                    }
                }
                for account in document.accounts {
                    try db.statement(
                        """
                        INSERT INTO accounts (id, nickname, kind, currency, balance_minor, is_default, position)
                        VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM accounts))
                        ON CONFLICT (id) DO UPDATE SET nickname = excluded.nickname, kind = excluded.kind,
                            currency = excluded.currency, balance_minor = excluded.balance_minor, is_default = excluded.is_default
                        """,
                        [account.id, account.nickname, account.kind.rawValue, account.balance.currency.code,
                         account.balance.minorUnits, account.isDefault]
                    ).run()
                }
            }
        }
    }

    /// The whole directory, as one consistent snapshot.
    public func directory() throws(TenderError) -> DirectoryDocument {
        DirectoryDocument(contacts: try contacts(), accounts: try accounts())
    }

    // MARK: PaymentLedger

    public func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        try withDatabase { (db) throws(TenderError) in
            try db.writeTransaction { () throws(TenderError) -> SubmissionOutcome in
                let existing = try db.statement(
                    "SELECT fingerprint, record, sequence FROM payments WHERE idempotency_key = ?", [submission.idempotencyKey])
                if try existing.step() {
                    let fingerprint = existing.text(0)
                    let record = PaymentRecord(
                        json: existing.text(1) ?? "", sequence: existing.int64(2), idempotencyKey: submission.idempotencyKey)
                    _ = try existing.step()
                    guard fingerprint == submission.fingerprint else {
                        throw .idempotencyConflict("this idempotency key already paid a payment with other parameters")
                    }
                    return .alreadyPaid(record)
                }
                let account = try db.statement(
                    "SELECT balance_minor, currency FROM accounts WHERE id = ?", [submission.accountID])
                guard try account.step(), account.text(1) == submission.amount.currency.code else { return .accountMissing }
                let balance = account.int64(0)
                _ = try account.step()
                guard balance >= submission.amount.minorUnits else { return .insufficientFunds }
                try db.statement(
                    "UPDATE accounts SET balance_minor = balance_minor - ? WHERE id = ?",
                    [submission.amount.minorUnits, submission.accountID]
                ).run()
                let next = try db.statement("SELECT COALESCE(MAX(sequence), 0) + 1 FROM payments")
                _ = try next.step()
                let sequence = next.int64(0)
                _ = try next.step()
                let record = submission.makeRecord(sequence, WallClock.nowMilliseconds())
                try db.statement(
                    """
                    INSERT INTO payments (sequence, idempotency_key, fingerprint, account_id, payee_contact_id,
                        payee_handle_id, currency, amount_minor, created_at_ms, record)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [sequence, submission.idempotencyKey, submission.fingerprint, submission.accountID,
                     submission.payee.contactID, submission.payee.handleID, submission.amount.currency.code,
                     submission.amount.minorUnits, WallClock.nowMilliseconds(), record.json]
                ).run()
                return .paid(record)
            }
        }
    }

    public func records() throws(TenderError) -> [PaymentRecord] {
        try withDatabase { (db) throws(TenderError) in
            try db.statement("SELECT record, sequence, idempotency_key FROM payments ORDER BY sequence").rows {
                PaymentRecord(json: $0.text(0) ?? "", sequence: $0.int64(1), idempotencyKey: $0.text(2) ?? "")
            }
        }
    }

    public func mostRecentPayee() throws(TenderError) -> RecentPayee? {
        try withDatabase { (db) throws(TenderError) in
            let row = try db.statement("SELECT payee_contact_id, payee_handle_id FROM payments ORDER BY sequence DESC LIMIT 1")
            guard try row.step(), let contact = row.text(0), let handle = row.text(1) else { return nil }
            _ = try row.step()
            return RecentPayee(contactID: contact, handleID: handle)
        }
    }
}
