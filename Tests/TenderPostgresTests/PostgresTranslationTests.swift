// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TenderPostgres

/// The store's SQL, written once with `?` placeholders, as PostgreSQL runs it.
struct PostgresTranslationTests {
    @Test func placeholdersAreNumberedOutsideQuotesOnly() {
        let translated = PostgresDatabase.translate("SELECT '?', \"a?b\" FROM t WHERE x = ? AND y = ?::integer AND z = 'it''s ?'")
        #expect(translated.text == "SELECT '?', \"a?b\" FROM t WHERE x = $1 AND y = $2::integer AND z = 'it''s ?'")
        #expect(translated.parameters == 2)
    }

    @Test func everyConflictTargetNamesThePersonFirst() {
        let translated = PostgresDatabase.translate(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        #expect(translated.text == "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (uid, key) DO UPDATE SET value = excluded.value")
    }

    @Test func everyUniqueKeyOfTheSchemaStartsWithThePerson() {
        // ON CONFLICT (uid, ...) needs a unique key that starts with uid on every table the store upserts into.
        for table in PostgresSchema.tables {
            #expect(table.body.contains("PRIMARY KEY (uid,"), "\(table.name)")
            #expect(!table.body.contains("UNIQUE (") || table.body.contains("UNIQUE (uid,"), "\(table.name)")
        }
        let creation = PostgresSchema.creation.joined(separator: "\n")
        for table in PostgresSchema.tables {
            #expect(creation.contains("ALTER TABLE \(table.name) FORCE ROW LEVEL SECURITY"), "\(table.name)")
            #expect(creation.contains("CREATE POLICY person ON \(table.name) USING (uid = current_setting('tender.uid')::bigint) WITH CHECK"))
            #expect(creation.contains("CREATE POLICY person_only ON \(table.name) AS RESTRICTIVE USING (uid = current_setting('tender.uid')::bigint) WITH CHECK"))
        }
    }
}
