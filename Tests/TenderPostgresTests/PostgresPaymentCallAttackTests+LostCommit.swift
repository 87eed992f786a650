// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderPostgres
@testable import TenderStore

extension PostgresPaymentCallAttackTests {
    /// A write whose session is terminated while a statement before its COMMIT runs (a row another session holds, a slow
    /// statement): the server answers the termination for that statement, so COMMIT never ran and nothing was kept. At
    /// 8411146 the store took it for a lost COMMIT answer and looked for the audit entries it wrote by their values: an
    /// identical entry kept before (the same event in the same millisecond, as the other daemon's may be) was taken for
    /// them, and the entry waiting was forgotten, never written. It is written by the next write: both entries are kept.
    @Test func aWriteTerminatedBeforeItsCommitForgetsNoAuditEntryAnIdenticalOneKeptBeforeMatches() throws {
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let uid = PostgresFixture.person()
        let store = try PostgresStore.open(pool: pool, uid: uid, home: PostgresFixture.home())
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        let twin = AuditRow(at: 1_700_000_000_123, user: "alice", event: "denied", intent: "INSendPaymentIntent", detail: "twin")
        // Kept once (the other daemon's, say), then the same entry waits for this store's next write.
        store.pendingAudit.withLock { $0.append(twin) }
        _ = try store.write { (_) throws(TenderError) -> Int in 0 }
        store.pendingAudit.withLock { $0.append(twin) }
        let session = KillerSession(PostgresDatabase(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1), uid: uid))
        let killed = Mutex(0)
        let thread = PostgresSignedInFlightTests.Thread {
            let killer = session.db
            for _ in 0..<1_000 {
                let sleeping = (try? killer.readTransaction { () throws(TenderError) in
                    try killer.statement(
                        "SELECT pid::text FROM pg_catalog.pg_stat_activity WHERE pid <> pg_catalog.pg_backend_pid() "
                            + "AND query LIKE 'SELECT pg_catalog.pg_sleep(5)%' AND state = 'active'"
                    ).rows { $0.text(0) ?? "" }
                }) ?? []
                if let pid = sleeping.first {
                    _ = try? killer.readTransaction { () throws(TenderError) in
                        try killer.statement("SELECT pg_catalog.pg_terminate_backend(?::pg_catalog.int4)", [pid]).rows { $0.text(0) ?? "" }
                    }
                    killed.withLock { $0 += 1 }
                    return
                }
                usleep(5_000)
            }
        }
        // The write: the waiting entry, then a statement still running when its session is terminated, then COMMIT.
        let outcome = Result { () throws(TenderError) -> Int in
            try store.write { (db) throws(TenderError) -> Int in
                try db.statement("SELECT pg_catalog.pg_sleep(5)").run()
                return 0
            }
        }
        thread.join()
        #expect(killed.withLock { $0 } == 1)
        if case .failure(.outcomeUnknown) = outcome { Issue.record("a write that never reached COMMIT answered as unknown") }
        if case .success = outcome { Issue.record("the terminated write answered success") }
        // The next write stores what waits: the entry twice, as it happened twice.
        _ = try store.write { (_) throws(TenderError) -> Int in 0 }
        #expect(store.pendingAudit.withLock { $0.isEmpty })
        #expect(try store.auditEntries().filter { $0.detail == "twin" }.count == 2)
    }

    /// The killing session of ``aWriteTerminatedBeforeItsCommitForgetsNoAuditEntryAnIdenticalOneKeptBeforeMatches()``, used by
    /// its thread only.
    private final class KillerSession: @unchecked Sendable {
        let db: PostgresDatabase
        init(_ db: PostgresDatabase) { self.db = db }
    }
}
