// SPDX-License-Identifier: Apache-2.0
/// A mark of the state a ``Directory`` (and the ledger beside it) is in, as one read transaction sees it
/// (``Directory/stateMark()``): two equal marks from the same directory mean nothing it holds changed between
/// the two reads, by this process or any other. Opaque; compare marks, never their parts.
public struct DirectoryMark: Equatable, Sendable {
    /// The store's count of commits by other connections, as its reading connection sees it.
    let dataVersion: Int64
    /// The store's own write transactions.
    let writes: Int64

    /// A mark from the store's data version (changed by every other connection's commit) and its own write count.
    public init(dataVersion: Int64, writes: Int64) {
        self.dataVersion = dataVersion
        self.writes = writes
    }
}
