// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderPostgres
import TenderStore
import TenderWiring

/// `tenderd --migrate`: every user's SQLite store in the state directory (`STATE/UID/tender.sqlite3`) moved into
/// the PostgreSQL store, each verified before and after (``PostgresMigration``). The SQLite files are left as they
/// were (a backup; tenderd with `--store` never reads them). A user whose PostgreSQL store already holds a ledger is
/// left alone and named.
enum StoreMigration {
    /// Migrates every user; says one line each; returns the exit status (0: every user moved or already there).
    static func run(state: String, location: PostgresLocation, say: (String) -> Void) -> Int32 {
        var failed = 0
        let pool = PostgresPool(location: location, size: 2)
        for uid in users(state) {
            let home = state + "/" + String(uid)
            do throws(TenderError) {
                let source = try EngineFactory.openStore(home: home, access: .readWrite(newLedger: false))
                let target = try PostgresStore.open(pool: pool, uid: uid, home: home, filling: true)
                let result = try PostgresMigration.migrate(from: source, to: target)
                let rows = result.rows.filter { $0.count > 0 }.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
                say("tenderd: uid \(uid): migrated and verified, \(result.report.count) records, head \(result.report.headHash) (\(rows))")
            } catch {
                failed += 1
                say("tenderd: uid \(uid): not migrated: \(error.message)")
            }
        }
        return failed == 0 ? 0 : 1
    }

    /// The uids whose directory in `state` holds a SQLite store, in order.
    private static func users(_ state: String) -> [UInt32] {
        guard let directory = opendir(state) else { return [] }
        defer { closedir(directory) }
        var found: [UInt32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let uid = UInt32(name), String(uid) == name, access(state + "/" + name + "/" + SQLiteStore.fileName, F_OK) == 0 else { continue }
            found.append(uid)
        }
        return found.sorted()
    }
}
