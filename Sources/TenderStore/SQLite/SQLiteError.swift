// SPDX-License-Identifier: Apache-2.0
internal import CSQLite
import TenderCore

/// Maps SQLite result codes to Tender errors. Messages name the operation
/// and SQLite's description, never the statement's arguments.
enum SQLiteError {
    static func error(_ code: Int32, _ db: OpaquePointer?, during operation: String) -> TenderError {
        let primary = code & 0xFF
        let description = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let message = "SQLite \(operation): \(description) (code \(code))"
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED: return .storeBusy(message)
        default: return .store(message)
        }
    }
}
