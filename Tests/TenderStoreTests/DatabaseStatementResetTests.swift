// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
@testable import TenderStore

/// The end of a transaction resets the statements handed out since the last one ended, and only those: a dialog's
/// read transactions no longer walk every statement the connection ever prepared (issue 34, the dialog's CPU).
@Suite struct DatabaseStatementResetTests {
    private func database(_ home: TemporaryHome) throws -> Database {
        let db = try Database(path: home.path + "/reset.sqlite3")
        try db.execute("CREATE TABLE t (n INTEGER)")
        try db.writeTransaction { () throws(TenderError) in
            try db.statement("INSERT INTO t (n) VALUES (1), (2)").run()
        }
        return db
    }

    @Test func aTransactionResetsOnlyTheStatementsHandedOutSinceTheLastOneEnded() throws {
        let home = TemporaryHome()
        let db = try database(home)
        // Forty statements prepared and cached, each in a transaction of its own.
        for n in 0..<40 {
            try db.readTransaction { () throws(TenderError) in _ = try db.statement("SELECT n + \(n) FROM t").rows { $0.int64(0) } }
        }
        let inside = try db.readTransaction { () throws(TenderError) -> Int in
            _ = try db.statement("SELECT COUNT(*) FROM t").rows { $0.int64(0) }
            return db.statementsToReset
        }
        // The last transaction's COMMIT, this one's BEGIN and its one read (on 16df147 every cached statement, 43, was reset).
        #expect(inside == 3)
        // Used again in the same transaction, a statement is reset once.
        let twice = try db.readTransaction { () throws(TenderError) -> Int in
            for _ in 0..<5 { _ = try db.statement("SELECT COUNT(*) FROM t").rows { $0.int64(0) } }
            return db.statementsToReset
        }
        #expect(twice == 3)
    }

    @Test func aStatementLeftMidStepDoesNotKeepItsSnapshotPastTheTransaction() throws {
        let home = TemporaryHome()
        let db = try database(home)
        // Many statements cached first, so the one left stepping is not the only one.
        for n in 0..<10 {
            try db.readTransaction { () throws(TenderError) in _ = try db.statement("SELECT n * \(n) FROM t").rows { $0.int64(0) } }
        }
        try db.readTransaction { () throws(TenderError) in
            let row = try db.statement("SELECT n FROM t ORDER BY n")
            #expect(try row.step())  // one row of two read; the statement is left stepping
        }
        // Another connection commits a row; this connection's next read transaction must see it (a statement still
        // stepping would have kept the old snapshot open).
        let other = try Database(path: home.path + "/reset.sqlite3")
        try other.writeTransaction { () throws(TenderError) in try other.statement("INSERT INTO t (n) VALUES (3)").run() }
        let count = try db.readTransaction { () throws(TenderError) -> Int64 in
            try db.statement("SELECT COUNT(*) FROM t").rows { $0.int64(0) }.first ?? 0
        }
        #expect(count == 3)
        // The same on a failing transaction: its rollback resets what it left stepping.
        #expect(throws: TenderError.self) {
            try db.readTransaction { () throws(TenderError) in
                let row = try db.statement("SELECT n FROM t ORDER BY n")
                _ = try row.step()
                throw TenderError.internal("fails mid-step")
            }
        }
        try other.writeTransaction { () throws(TenderError) in try other.statement("INSERT INTO t (n) VALUES (4)").run() }
        let after = try db.readTransaction { () throws(TenderError) -> Int64 in
            try db.statement("SELECT COUNT(*) FROM t").rows { $0.int64(0) }.first ?? 0
        }
        #expect(after == 4)
    }
}
