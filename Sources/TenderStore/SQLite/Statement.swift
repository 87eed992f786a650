// SPDX-License-Identifier: Apache-2.0
internal import CSQLite
import TenderCore

/// A prepared statement (sqlite3_stmt), finalized when released.
/// Belongs to its ``Database`` and to one thread at a time.
final class Statement: StoreStatement {
    private let handle: OpaquePointer
    private let db: OpaquePointer
    /// Whether its ``Database`` has it among the statements the end of the running transaction resets.
    var handedOut = false

    init(db: OpaquePointer, sql: String) throws(TenderError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError.error(code, db, during: "prepare") }
        self.handle = statement
        self.db = db
    }

    deinit { sqlite3_finalize(handle) }

    /// The values of `?` placeholders, in order (``StoreBindable``: String, Int64, Int, Bool, [UInt8], nil for NULL).
    func bind(_ values: [(any StoreBindable)?]) throws(TenderError) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value?.storeValue ?? .null {
            case .null: code = sqlite3_bind_null(handle, index)
            case var .text(text):
                // With its byte length, so an embedded NUL cannot shorten what SQLite compares.
                code = text.withUTF8 { buffer in
                    buffer.baseAddress.map { base in
                        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                            sqlite3_bind_text(handle, index, $0, Int32(buffer.count), Statement.transient)
                        }
                    } ?? sqlite3_bind_text(handle, index, "", 0, Statement.transient)
                }
            case let .integer(number): code = sqlite3_bind_int64(handle, index, number)
            case let .bytes(bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Statement.transient) }
            }
            guard code == SQLITE_OK else { throw SQLiteError.error(code, db, during: "bind") }
        }
        return self
    }

    /// Ends any step in progress (sqlite3_reset), releasing what it reads.
    func reset() { sqlite3_reset(handle) }

    /// Steps once: true when a row is ready to read, false when done.
    func step() throws(TenderError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw SQLiteError.error(code, db, during: "step")
        }
    }

    /// Runs to completion, ignoring rows.
    func run() throws(TenderError) {
        while try step() {}
    }

    /// Every row, read by `row`.
    func rows<T>(_ row: (any StoreStatement) throws(TenderError) -> T) throws(TenderError) -> [T] {
        var out: [T] = []
        while try step() { out.append(try row(self)) }
        return out
    }

    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL, let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// Whether the column's value is stored as a BLOB.
    func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_BLOB }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// SQLite's SQLITE_TRANSIENT: the value is copied at bind time.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
