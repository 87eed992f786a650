// SPDX-License-Identifier: Apache-2.0
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

    private static func contact(id: String, _ db: any StoreDatabase) throws(TenderError) -> Contact? {
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
            try db.statement(
                "SELECT id, nickname, organization, kind, currency, balance_minor, points, miles, is_default FROM accounts ORDER BY position, id"
            ).rows { (row) throws(TenderError) -> Account in
                guard let type = AccountType(rawValue: row.text(3) ?? "") else { throw .store("a stored account has an unknown type") }
                let balance = try Money(minorUnits: row.int64(5), currency: try Currency(code: row.text(4) ?? ""))
                return Account(
                    id: row.text(0) ?? "", nickname: row.text(1), organizationName: row.text(2), type: type, balance: balance,
                    points: row.isNull(6) ? nil : row.int64(6), miles: row.isNull(7) ? nil : row.int64(7), isDefault: row.int64(8) != 0)
            }
        }
    }

    public func billPayees() throws(TenderError) -> [BillPayee] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT id, organization, nickname, account_number FROM bill_payees ORDER BY position, id").rows { row in
                BillPayee(id: row.text(0) ?? "", organizationName: row.text(1) ?? "", nickname: row.text(2), accountNumber: row.text(3))
            }
        }
    }

    public func bills() throws(TenderError) -> [Bill] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT document FROM bills ORDER BY position, id").rows { (row) throws(TenderError) -> Bill in
                try Bill(json: try JSONParser.parse(row.text(0) ?? ""), field: "stored bill")
            }
        }
    }

    public func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary {
        try read { (db) throws(TenderError) in
            let row = try db.statement("SELECT document FROM vocabulary WHERE kind = ?", [kind.rawValue])
            guard try row.step(), let text = row.text(0) else { return UserVocabulary(kind: kind, items: []) }
            _ = try row.step()
            return try UserVocabulary(json: try JSONParser.parse(text))
        }
    }

    /// Replaces the person's whole vocabulary of one kind (SiriKit's setVocabularyStrings).
    public func setVocabulary(_ vocabulary: UserVocabulary) throws(TenderError) {
        try write { (db) throws(TenderError) in
            try db.statement(
                "INSERT INTO vocabulary (kind, document) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET document = excluded.document",
                [vocabulary.kind.rawValue, JSONWriter.string(vocabulary.json)]
            ).run()
        }
    }

    /// Signed in unless the host said otherwise; shared by every process using the home.
    public func isSignedIn() throws(TenderError) -> Bool {
        try read { (db) throws(TenderError) in
            let row = try db.statement("SELECT value FROM settings WHERE key = 'signedIn'")
            guard try row.step() else { return true }
            let value = row.text(0)
            _ = try row.step()
            return value != "false"
        }
    }

    /// Records whether the person is signed in to the payment service.
    public func setSignedIn(_ signedIn: Bool) throws(TenderError) {
        try write { (db) throws(TenderError) in
            try db.statement(
                "INSERT INTO settings (key, value) VALUES ('signedIn', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [signedIn ? "true" : "false"]
            ).run()
        }
    }

    /// Adds or replaces every item of `document`, in one transaction; the accounts' balances
    /// and currencies are signed in one ledger entry (``anchorBalances(set:removed:_:)``).
    /// Throws ``TenderError/notFound(_:)`` for a bill whose payee is in neither the document nor the store.
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
                    INSERT INTO accounts (id, nickname, organization, kind, currency, balance_minor, points, miles, is_default, position)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM accounts))
                    ON CONFLICT (id) DO UPDATE SET nickname = excluded.nickname, organization = excluded.organization,
                        kind = excluded.kind, currency = excluded.currency, balance_minor = excluded.balance_minor,
                        points = excluded.points, miles = excluded.miles, is_default = excluded.is_default
                    """,
                    [account.id, account.nickname, account.organizationName, account.type.rawValue, account.balance.currency.code,
                     account.balance.minorUnits, account.points, account.miles, account.isDefault]
                ).run()
            }
            try anchorBalances(set: document.accounts.map { ($0.id, $0.balance) }, removed: [], db)
            for payee in document.billPayees {
                try db.statement(
                    """
                    INSERT INTO bill_payees (id, organization, nickname, account_number, position)
                    VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM bill_payees))
                    ON CONFLICT (id) DO UPDATE SET organization = excluded.organization, nickname = excluded.nickname,
                        account_number = excluded.account_number
                    """, [payee.id, payee.organizationName, payee.nickname, payee.accountNumber]
                ).run()
            }
            for bill in document.bills {
                let payee = try db.statement("SELECT 1 FROM bill_payees WHERE id = ?", [bill.billPayeeID])
                guard try payee.step() else { throw .notFound("bill \"\(bill.id.prefix(64))\" names a bill payee that does not exist") }
                _ = try payee.step()
                try Self.storeBill(bill, db)
            }
        }
    }

    static func storeBill(_ bill: Bill, _ db: any StoreDatabase) throws(TenderError) {
        try db.statement(
            """
            INSERT INTO bills (id, bill_payee_id, document, position)
            VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM bills))
            ON CONFLICT (id) DO UPDATE SET bill_payee_id = excluded.bill_payee_id, document = excluded.document
            """, [bill.id, bill.billPayeeID, JSONWriter.string(bill.json)]
        ).run()
    }

    /// Removes the listed items, in one transaction: `{"contacts": [ids], "accounts": [...], "billPayees": [...], "bills": [...]}`.
    /// A bill payee takes its bills with it; the accounts' removal is signed in a ledger entry. Throws ``TenderError/notFound(_:)`` (and removes nothing) when an id does not exist.
    public func removeFromDirectory(_ removal: DirectoryRemoval) throws(TenderError) {
        try write { (db) throws(TenderError) in
            // Bills before their payees: a payee's removal takes its bills, which would then look missing.
            for (table, ids) in [("contacts", removal.contacts), ("accounts", removal.accounts), ("bills", removal.bills), ("bill_payees", removal.billPayees)] {
                for id in ids {
                    let statement = try db.statement("DELETE FROM \(table) WHERE id = ?", [id])
                    try statement.run()
                    guard db.changes > 0 else { throw .notFound("\(table) has no \"\(id.prefix(64))\"") }
                }
            }
            try anchorBalances(set: [], removed: removal.accounts, db)
        }
    }

    /// The whole directory.
    public func directory() throws(TenderError) -> DirectoryDocument {
        DirectoryDocument(contacts: try contacts(), accounts: try accounts(), billPayees: try billPayees(), bills: try bills())
    }
}
