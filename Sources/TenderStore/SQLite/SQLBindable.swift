// SPDX-License-Identifier: Apache-2.0
internal import CSQLite

/// A value a statement's `?` placeholder takes: String, Int64, Int, Bool, [UInt8], or an Optional of one (nil binds NULL).
/// Each type binds itself (a protocol witness), so binding needs no dynamic cast.
protocol SQLBindable {
    /// Binds the value to placeholder `index` (1-based) of `statement`; answers SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension String: SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // With its byte length, so an embedded NUL cannot shorten what SQLite compares.
        var utf8 = self
        return utf8.withUTF8 { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(statement, index, $0, Int32(buffer.count), SQLBinding.transient)
                }
            } ?? sqlite3_bind_text(statement, index, "", 0, SQLBinding.transient)
        }
    }
}

extension Int64: SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }
}

extension Int: SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Bool: SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self ? 1 : 0) }
}

extension Array: SQLBindable where Element == UInt8 {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), SQLBinding.transient) }
    }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: return sqlite3_bind_null(statement, index)
        case let .some(value): return value.bind(to: statement, at: index)
        }
    }
}

/// SQLite's SQLITE_TRANSIENT: the value is copied at bind time.
enum SQLBinding {
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
