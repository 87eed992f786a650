// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A read a transaction makes before it needs its answer (``StoreDatabase/ahead(_:_:)``), so that an engine across a
/// network sends every such read of a transaction together: the statement is given by ``statement()``, once. On SQLite it
/// is made there, when first used (SQLite's statements are stepped lazily, so nothing changes); on PostgreSQL it was sent
/// already, in the connection's next round trip, and its first step waits for that round trip. Belongs to its
/// transaction and its thread.
package struct AheadRead {
    private let make: () throws(TenderError) -> any StoreStatement

    /// The read whose statement `make` gives, called once by ``statement()``.
    package init(_ make: @escaping () throws(TenderError) -> any StoreStatement) { self.make = make }

    /// The statement, to step (once per read: SQLite's cached statement is bound when it is made).
    package func statement() throws(TenderError) -> any StoreStatement { try make() }
}
