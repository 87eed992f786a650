// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
#if canImport(Glibc)
import Glibc
#endif

/// `tender migrate`: moves tenderd's SQLite stores (its state directory, `STATE/UID/tender.sqlite3`) into its PostgreSQL
/// store, verified before and after. `tender` does not link libpq (nor does libtender.so): it runs the installed
/// tenderd's migration (`tenderd --migrate`), found beside `tender`, in `../sbin`, or on PATH, with the same arguments,
/// and answers its exit status. As root it runs tenderd as the state directory's owner (tenderd's user, as systemd
/// runs it), so the state checks and the database's peer login are the daemon's; anyone else runs it as themselves.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move tenderd's SQLite stores into its PostgreSQL store, verified before and after (runs tenderd --migrate).",
        discussion: """
            Every user's store in the state directory (or only --user's) is copied row for row into the database, \
            one transaction per user: the SQLite ledger is verified first, the PostgreSQL one after, and both must have \
            the same length, head hash and keys, else nothing is kept. A user who has anything in the database already \
            is left alone. The SQLite files stay as they were. Stop tenderd first. docs/scale.md.
            """)

    @Option(help: ArgumentHelp("tenderd's PostgreSQL store (no password in it: docs/scale.md).", valueName: "postgresql://..."))
    var store: String

    @Option(help: ArgumentHelp("tenderd's state directory, holding STATE/UID/tender.sqlite3.", valueName: "DIR"))
    var state = "/var/lib/tender"

    @Option(help: ArgumentHelp("Move only this user's store (a name or a uid).", valueName: "USER"))
    var user: String?

    @Option(help: ArgumentHelp("The tenderd to run (default: beside tender, ../sbin, then PATH).", valueName: "PATH"))
    var tenderd: String?

    func run() throws {
        guard state.hasPrefix("/") else { throw ValidationError("--state must be an absolute directory") }
        var arguments = ["--state", state, "--store", store, "--migrate"]
        if let user { arguments += ["--user", String(try Self.uid(of: user))] }
        let program: String
        if let tenderd { program = try Self.checked(tenderd) } else { program = try Self.findTenderd() }
        if geteuid() == 0 { try Self.becomeStateOwner(state) }
        let argv = [program] + arguments
        let pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        execv(program, pointers)
        let failure = String(cString: strerror(errno))
        for pointer in pointers { free(pointer) }
        throw TenderError.invalidArgument("tender migrate: cannot run \(program): \(failure)")
    }

    /// The uid of `user`, a name or a number; an unknown name is an error (nothing is run).
    static func uid(of user: String) throws(TenderError) -> UInt32 {
        if let uid = UInt32(user), String(uid) == user, uid != UInt32.max { return uid }
        guard !user.isEmpty, user.utf8.count <= 256, !user.utf8.contains(0), let entry = getpwnam(user) else {
            throw .invalidArgument("tender migrate: there is no user \(user.prefix(64)) (nothing was run)")
        }
        return entry.pointee.pw_uid
    }

    /// tenderd beside this `tender`, in `../sbin`, or on PATH (then /usr/sbin, /usr/local/sbin): the first that is there.
    /// Throws naming where it looked when there is none.
    static func findTenderd() throws(TenderError) -> String {
        var candidates: [String] = []
        if let own = realPath("/proc/self/exe") {
            let directory = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)])
            candidates += [directory + "/tenderd", directory + "/../sbin/tenderd"]
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        // Root never takes a relative PATH entry (the working directory is anyone's).
        candidates += path.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }.map { $0 + "/tenderd" }
        candidates += ["/usr/sbin/tenderd", "/usr/local/sbin/tenderd"]
        for candidate in candidates where access(candidate, X_OK) == 0 {
            return try checked(candidate)
        }
        throw .invalidArgument(
            "tender migrate runs tenderd's migration (tender does not link libpq), but no tenderd was found beside tender, "
                + "in ../sbin, on PATH, in /usr/sbin or /usr/local/sbin: install tenderd (it needs libpq), or give --tenderd PATH")
    }

    /// `path`, resolved, when it is a regular executable file; for root, one that only root may change (owned by root,
    /// not writable by group or others, nor its directory), since root would run it. Throws naming what is wrong.
    static func checked(_ path: String) throws(TenderError) -> String {
        guard let resolved = realPath(path) else { throw .invalidArgument("tender migrate: \(path) does not exist") }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(resolved, X_OK) == 0 else {
            throw .invalidArgument("tender migrate: \(path) is not an executable file")
        }
        if geteuid() == 0 {
            let directory = String(resolved[..<(resolved.lastIndex(of: "/") ?? resolved.startIndex)])
            var parent = stat()
            guard info.st_uid == 0, info.st_mode & 0o022 == 0, stat(directory.isEmpty ? "/" : directory, &parent) == 0, parent.st_uid == 0,
                parent.st_mode & 0o022 == 0 || parent.st_mode & S_ISVTX != 0
            else {
                throw .invalidArgument(
                    "tender migrate: \(resolved) (or its directory) may be changed by someone other than root, who runs it: refused")
            }
        }
        return resolved
    }

    /// As root: becomes the owner of the state directory (its user's groups, then its uid) before tenderd runs, unless root
    /// owns it. A symbolic link or a non-directory is refused: tenderd then reads nothing.
    static func becomeStateOwner(_ state: String) throws(TenderError) {
        var info = stat()
        guard lstat(state, &info) == 0 else { throw .home("tender migrate: there is no state directory \(state) (nothing was created)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .home("tender migrate: the state directory \(state) is not a directory (or is a link)") }
        guard info.st_uid != 0 else { return }
        guard let entry = getpwuid(info.st_uid) else {
            throw .home("tender migrate: the state directory's owner (uid \(info.st_uid)) is not a user of this machine")
        }
        let gid = entry.pointee.pw_gid
        guard initgroups(entry.pointee.pw_name, gid) == 0, setgid(gid) == 0, setuid(info.st_uid) == 0, setuid(0) != 0 else {
            throw .home("tender migrate: cannot become the state directory's owner (uid \(info.st_uid)): \(String(cString: strerror(errno)))")
        }
    }

    /// The canonical path of `path` (symbolic links followed), or nil.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
