// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Opens a SQLite store's reading connection when it is first needed, long after the engine opened: the store
/// file at that path must then still be the one the writing connection opened (same device and inode, noted
/// right after the writer's open), a regular file, not a symbolic link, of the effective user and not writable
/// by group or others, and at this build's schema version, and its `-wal` and `-shm` (which the new connection opens
/// by name too), when there, regular files of the effective user not writable by group or others; else
/// ``TenderError/home(_:)`` (or ``TenderError/store(_:)``) and no connection. A store, `-wal` or `-shm` replaced
/// (by another user's) or loosened between the engine's open and its first scan is thus refused, as the open itself
/// would refuse it. Not thread-safe: the store's reader lock serializes it.
struct LazyReader {
    /// The store file.
    let path: String
    /// The device and inode of the store file just after the writing connection opened it.
    let identity: (device: UInt64, inode: UInt64)

    /// Notes the identity of the store file at `path`, which the writing connection has just opened.
    init(path: String) throws(TenderError) {
        self.path = path
        identity = try Self.check(path)
    }

    /// A new reading connection on the store, after the checks above.
    func open() throws(TenderError) -> any StoreDatabase {
        // Checked before the open (nothing is written to a file put in the store's place) and after it (the file opened).
        guard try Self.check(path) == identity else {
            throw .home("the store file \(path) was replaced after the engine opened it; open the engine again")
        }
        // The new connection opens these by name too: one of another user's (or loosened) would be read as the store's.
        for suffix in ["-wal", "-shm"] {
            var info = stat()
            if lstat(path + suffix, &info) != 0, errno == ENOENT { continue }
            _ = try Self.check(path + suffix)
        }
        let reading = try Database(path: path)
        guard try Self.check(path) == identity else {
            throw .home("the store file \(path) was replaced after the engine opened it; open the engine again")
        }
        guard try reading.readTransaction({ () throws(TenderError) -> Int64 in try Schema.knownVersion(reading) }) == Schema.version else {
            throw .store("the store \(path) changed schema version after the engine opened it; open the engine again")
        }
        return reading
    }

    /// The device and inode of the store file at `path`, checked as the home's checks check it.
    static func check(_ path: String) throws(TenderError) -> (device: UInt64, inode: UInt64) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .home("cannot read the store file \(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .home("the store file \(path) is not a regular file") }
        guard info.st_uid == geteuid() else {
            throw .home("the store file \(path) belongs to uid \(info.st_uid), not to the user Tender runs as (uid \(geteuid()))")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .home("the store file \(path) is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w it")
        }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
