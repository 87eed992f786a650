// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Checks and prepares the home directory that holds the store, in the
/// manner of ssh's StrictModes: the home, `keys/`, the store and its `-wal`
/// and `-shm` files must belong to the effective user and must not be
/// writable by group or others; for writing, the directory holding the home
/// must belong to root or that user and, when group or others may write it,
/// carry the sticky bit. The home is created (mkdir 0700) and checked through
/// descriptors (openat with O_NOFOLLOW, fstat), so a directory another user
/// puts in its place meanwhile is refused. Everything is checked before
/// anything is created, so a refused open leaves nothing behind.
///
/// Ledger continuity: a home that held a ledger (a key in `keys/`, or the
/// marker file ``markerName``) whose store is missing is refused unless a new
/// ledger is asked for explicitly.
enum HomeDirectory {
    /// The marker written beside a new store: this home holds a ledger.
    static let markerName = ".tender-ledger"
    /// The files SQLite keeps beside the store.
    static let storeSuffixes = ["", "-wal", "-shm"]

    /// Checks `path` and, for `.readWrite`, creates the home (0700), the
    /// marker and the empty store file (0600) when missing. Throws
    /// ``TenderError/home(_:)`` naming what is wrong; creates nothing then. Without `storeFile` (a store kept
    /// elsewhere: tenderd's PostgreSQL store), the home holds only `keys/`: no store file, no marker.
    static func prepare(_ path: String, access: StoreAccess, storeFile: Bool = true) throws(TenderError) {
        guard !path.isEmpty else { throw .home("the home path is empty") }
        let store = path + "/" + SQLiteStore.fileName
        let homeExists = try checkOwned(path, what: "the home directory", directory: true)
        if homeExists { _ = try checkOwned(path + "/keys", what: "the key directory", directory: true) }
        var storeExists = false
        for suffix in storeSuffixes {
            let exists = homeExists ? try checkOwned(store + suffix, what: "the store file \(SQLiteStore.fileName)\(suffix)", directory: false) : false
            if suffix.isEmpty { storeExists = exists }
        }
        switch access {
        case .readOnly:
            guard homeExists else { throw .home("there is no Tender home at \(path)") }
            guard storeExists else { throw .home("there is no store \(store); a read-only open creates nothing") }
            return
        case let .readWrite(newLedger):
            if storeFile, homeExists, !storeExists, !newLedger {
                var evidence: [String] = []
                if exists(path + "/" + markerName) { evidence.append("the marker \(markerName)") }
                let keys = keyIDs(home: path)
                if !keys.isEmpty { evidence.append("\(keys.count) signing key(s) in keys/") }
                // Another open making this home now makes the store before the marker (and before any key): evidence seen
                // after the store was not means the store is there now, unless it is missing indeed.
                if !evidence.isEmpty, try checkOwned(store, what: "the store file \(SQLiteStore.fileName)", directory: false) {
                    storeExists = true
                } else if !evidence.isEmpty {
                    throw .home(
                        "the store \(store) is missing, but this home held a ledger (\(evidence.joined(separator: ", "))); restore the store, "
                            + "or start a new ledger explicitly with `tender init --force` (configuration \"newLedger\": true)")
                }
            }
            // The home is created, or checked, through a descriptor of its parent, whose other users could otherwise
            // swap it: a parent they can write without the sticky bit, or that another user owns, is refused.
            let (parentPath, name) = try split(path)
            if !homeExists { try makeDirectories(parentPath) }
            let parent = open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard parent >= 0 else { throw .home("cannot open the directory \(parentPath) that holds the home: \(String(cString: strerror(errno)))") }
            defer { close(parent) }
            try checkParent(parent, parentPath)
            if !homeExists, mkdirat(parent, name, 0o700) != 0, errno != EEXIST {
                throw .home("cannot create the home directory: \(String(cString: strerror(errno)))")
            }
            // What was opened is checked, not the path: another user's directory that appeared there meanwhile is refused.
            let home = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard home >= 0 else { throw .home("cannot open the home directory \(path): \(String(cString: strerror(errno)))") }
            defer { close(home) }
            var info = stat()
            guard fstat(home, &info) == 0 else { throw .home("cannot read the home directory \(path): \(String(cString: strerror(errno)))") }
            guard info.st_uid == geteuid() else {
                throw .home("the home directory \(path) belongs to uid \(info.st_uid), not to the user Tender runs as (uid \(geteuid())); another user made it")
            }
            guard info.st_mode & 0o022 == 0 else {
                throw .home("the home directory \(path) is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w it")
            }
            if homeExists {
                guard faccessat(home, ".", W_OK | X_OK, AT_EACCESS) == 0 else { throw .home("the home directory is not writable") }
            }
            if storeFile, !storeExists {
                // The store first: an open that meets the marker finds the store beside it (above).
                try createPrivateFile(home, SQLiteStore.fileName, contents: nil)
                try createPrivateFile(home, markerName, contents: "This home holds a Tender ledger (\(SQLiteStore.fileName)). Do not delete it.\n")
            }
        }
    }

    /// `path` as the directory that holds it and its last component ("." for a relative name).
    private static func split(_ path: String) throws(TenderError) -> (parent: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else {
            guard trimmed != ".", trimmed != ".." else { throw .home("the home path \(path) must name a directory") }
            return (".", String(trimmed))
        }
        let name = String(trimmed[trimmed.index(after: slash)...])
        guard !name.isEmpty, name != ".", name != ".." else { throw .home("the home path \(path) must name a directory") }
        let parent = String(trimmed[..<slash])
        return (parent.isEmpty ? "/" : parent, name)
    }

    /// Refuses a parent (opened as `fd`) that a user other than root and the effective user could use
    /// to put another directory in the home's place: one they own, or one group or others may write
    /// without the sticky bit (as /tmp has it, so only an entry's owner may remove or rename it).
    private static func checkParent(_ fd: Int32, _ path: String) throws(TenderError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .home("cannot read the directory \(path) that holds the home: \(String(cString: strerror(errno)))") }
        guard info.st_uid == 0 || info.st_uid == geteuid() else {
            throw .home("the directory \(path) that holds the home belongs to uid \(info.st_uid), who could replace the home; choose a home elsewhere")
        }
        guard info.st_mode & 0o022 == 0 || info.st_mode & S_ISVTX != 0 else {
            throw .home(
                "the directory \(path) that holds the home is writable by group or others without the sticky bit "
                    + "(mode \(String(info.st_mode & 0o7777, radix: 8))): another user could replace the home; chmod go-w or +t it")
        }
    }

    /// The IDs of the private keys in HOME/keys (file names ending in .pem).
    static func keyIDs(home: String) -> [String] {
        guard let dir = opendir(home + "/keys") else { return [] }
        defer { closedir(dir) }
        var ids: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".pem"), name.count > 4 { ids.append(String(name.dropLast(4))) }
        }
        return ids.sorted()
    }

    /// Renames `keys/ID.pem.new` (a key file written before its key was recorded) to `keys/ID.pem`
    /// for each of `recorded` that has no `ID.pem` yet. A failure is left for the next open.
    static func promoteKeys(home: String, recorded: [String]) {
        for id in recorded {
            let file = "\(home)/keys/\(id).pem"
            var info = stat()
            guard lstat(file, &info) != 0, errno == ENOENT, lstat(file + ".new", &info) == 0 else { continue }
            _ = rename(file + ".new", file)
        }
    }

    /// Renames each key file `keys/ID.pem` of `ids` to `keys/ID.pem.retired` (the keys of a ledger
    /// replaced by a new one on request): kept, but no longer a key of this home. Throws ``TenderError/home(_:)``.
    static func retireKeys(home: String, ids: [String]) throws(TenderError) {
        for id in ids {
            let file = "\(home)/keys/\(id).pem"
            guard rename(file, file + ".retired") == 0 else {
                throw .home("cannot retire the key \(file) of the earlier ledger: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// False when `path` does not exist; throws unless it is a directory
    /// (or a regular file) of the effective user that group and others cannot write.
    private static func checkOwned(_ path: String, what: String, directory: Bool) throws(TenderError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw .home("cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw .home("\(what) \(path) is a symbolic link") }
        guard type == (directory ? S_IFDIR : S_IFREG) else { throw .home("\(what) \(path) is not a \(directory ? "directory" : "regular file")") }
        guard info.st_uid == geteuid() else {
            throw .home("\(what) \(path) belongs to uid \(info.st_uid), not to the user Tender runs as (uid \(geteuid()))")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .home("\(what) \(path) is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w it")
        }
        return true
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// mkdir -p with mode 0700, for the directories above the home (those that exist are left as they are;
    /// the one holding the home is checked by ``checkParent(_:_:)``).
    private static func makeDirectories(_ path: String) throws(TenderError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .home("cannot create the directories above the home: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Creates `name` in the home opened as `home`, with mode 0600 (whatever the umask) when missing, so the
    /// store and its journal files (which SQLite gives the same mode) are private.
    private static func createPrivateFile(_ home: Int32, _ name: String, contents: String?) throws(TenderError) {
        let fd = openat(home, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .home("cannot create \(name) in the home: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        if let contents {
            let bytes = Array(contents.utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fsync(fd)
        }
    }
}
