// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The embedded store administers its own directory.
extension SQLiteStore: DirectoryAdmin {
    public func directoryDocument() throws(TenderError) -> DirectoryDocument { try directory() }
}
