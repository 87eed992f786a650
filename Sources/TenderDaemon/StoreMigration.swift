// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderPostgres
import TenderStore
import TenderWiring

/// `tenderd --migrate`: every user's SQLite store in the state directory (`STATE/UID/tender.sqlite3`) moved into
/// the PostgreSQL store, each verified before and after (``PostgresMigration``). The SQLite files are left as they
/// were (a backup; tenderd with `--store` never reads them). A user who has anything at all in PostgreSQL already
/// (ledger, directory, audit, throttle, keys, claims...) is left alone and named. `tender migrate` runs this.
enum StoreMigration {
    /// Migrates every user, or only `only`; says one line each; returns the exit status (0: every user named moved;
    /// 1: one was not, or there was nobody to move: a mistyped state directory or uid is an error, not a success).
    static func run(state: String, location: PostgresLocation, only: UInt32? = nil, say: (String) -> Void) -> Int32 {
        var failed = 0
        let pool = PostgresPool(location: location, size: 2)
        var found = users(state)
        if let only {
            guard found.contains(only) else {
                say("tenderd: uid \(only): not migrated: \(state)/\(only)/\(SQLiteStore.fileName) does not exist (nothing was changed)")
                return 1
            }
            found = [only]
        }
        guard !found.isEmpty else {
            say("tenderd: nothing to migrate: no user's SQLite store (UID/\(SQLiteStore.fileName)) in \(state)")
            return 1
        }
        for uid in found {
            let home = state + "/" + String(uid)
            do throws(TenderError) {
                try PostgresMigration.requireNothingHeld(pool: pool, uid: uid)
                let source = try EngineFactory.openStore(home: home, access: .readWrite(newLedger: false))
                let target = try PostgresStore.open(pool: pool, uid: uid, home: home, filling: true)
                let result = try PostgresMigration.migrate(from: source, to: target)
                let rows = result.rows.filter { $0.count > 0 }.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
                let grown = result.verifiedCount > result.report.count
                    ? "; the PostgreSQL ledger has grown since to \(result.verifiedCount) records, verified" : ""
                say("tenderd: uid \(uid): migrated and verified, \(result.report.count) records, head \(result.report.headHash) (\(rows))\(grown)")
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
