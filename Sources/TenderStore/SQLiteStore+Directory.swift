import TenderCore

extension SQLiteStore {
    public func contacts() throws(TenderError) -> [Contact] {
        try read { (db) throws(TenderError) in
            let ids = try db.statement("SELECT id FROM contacts ORDER BY position, id").rows { $0.text(0) ?? "" }
            var found: [Contact] = []
            for id in ids { if let contact = try Self.contact(id: id, db) { found.append(contact) } }
            return found
        }
    }

    public func contact(id: String) throws(TenderError) -> Contact? {
        try read { (db) throws(TenderError) in try Self.contact(id: id, db) }
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
        try read { (db) throws(TenderError) in
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
        try write { (db) throws(TenderError) in
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

    /// The whole directory.
    public func directory() throws(TenderError) -> DirectoryDocument {
        DirectoryDocument(contacts: try contacts(), accounts: try accounts())
    }
}
