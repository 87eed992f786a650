// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A statement of a ``StoreDatabase`` with its arguments bound, read a row at a time.
/// Belongs to its connection and to one thread at a time.
package protocol StoreStatement: AnyObject {
    /// Steps once: true when a row is ready to read, false when done; throws ``TenderError/store(_:)``
    /// (or ``TenderError/storeBusy(_:)``) when the engine fails.
    func step() throws(TenderError) -> Bool
    /// Runs to completion, ignoring rows.
    func run() throws(TenderError)
    /// Every row, read by `row`.
    func rows<T>(_ row: (any StoreStatement) throws(TenderError) -> T) throws(TenderError) -> [T]
    /// The current row's `column` as text, nil when NULL.
    func text(_ column: Int32) -> String?
    /// The current row's `column` as an integer (0 when NULL).
    func int64(_ column: Int32) -> Int64
    /// Whether the current row's `column` is NULL.
    func isNull(_ column: Int32) -> Bool
    /// Whether the current row's `column` holds bytes (a BLOB, PostgreSQL's bytea) rather than text.
    func isBlob(_ column: Int32) -> Bool
    /// The current row's `column` as bytes (empty when NULL).
    func blob(_ column: Int32) -> [UInt8]
}
