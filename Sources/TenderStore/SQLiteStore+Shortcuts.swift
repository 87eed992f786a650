// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// Every shortcut, in the order registered.
    public func shortcuts() throws(TenderError) -> [Shortcut] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT document FROM shortcuts ORDER BY position").rows { (row) throws(TenderError) -> Shortcut in
                try Shortcut(stored: try JSONParser.parse(row.text(0) ?? ""))
            }
        }
    }

    /// Registers `shortcut`, replacing one with the same phrase (case, spaces, punctuation and the app's name ignored).
    public func addShortcut(_ shortcut: Shortcut) throws(TenderError) {
        try write { (db) throws(TenderError) in
            try db.statement(
                """
                INSERT INTO shortcuts (phrase_key, document, position)
                VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM shortcuts))
                ON CONFLICT (phrase_key) DO UPDATE SET document = excluded.document
                """, [shortcut.key, JSONWriter.string(shortcut.json)]
            ).run()
        }
    }

    /// Removes the shortcut with this phrase; ``TenderError/notFound(_:)`` when there is none.
    public func removeShortcut(phrase: String) throws(TenderError) {
        try write { (db) throws(TenderError) in
            try db.statement("DELETE FROM shortcuts WHERE phrase_key = ?", [Shortcut.key(of: phrase)]).run()
            guard db.changes > 0 else { throw .notFound("no shortcut has that phrase") }
        }
    }
}
