// SPDX-License-Identifier: Apache-2.0
/// How a store is opened.
public enum StoreAccess: Equatable, Sendable {
    /// Reading and writing; creates the home and the store when missing.
    /// `newLedger`: allow a new store in a home that held a ledger whose store is missing.
    case readWrite(newLedger: Bool)
    /// Reading only (SQLite read-only): never creates or changes anything, works on a read-only home.
    case readOnly
}
