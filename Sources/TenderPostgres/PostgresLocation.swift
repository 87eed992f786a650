// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
internal import Glibc
import TenderCore

/// Where tenderd's PostgreSQL store is: a `postgresql://` (or `postgres://`) connection URI, checked by libpq's
/// own parser. It may not hold a password: tenderd's command line is readable by every local user
/// (`/proc/PID/cmdline`) and its policy file by many; the password goes where libpq reads it with its own
/// checks (a passfile of mode 0600, `PGPASSFILE`), or the server authenticates the daemon's user (peer) or
/// a client certificate. Thread-safe (immutable).
public struct PostgresLocation: Sendable, Equatable {
    /// The URI as given.
    let uri: String
    /// The URI without what follows the host part's credentials: safe to print in errors and logs.
    public let redacted: String

    /// Checks `uri`; throws ``TenderError/invalidArgument(_:)`` naming what is wrong (never echoing a password).
    public init(_ uri: String) throws(TenderError) {
        guard uri.hasPrefix("postgresql://") || uri.hasPrefix("postgres://") else {
            throw .invalidArgument("the store must be a postgresql:// URI")
        }
        guard uri.utf8.count <= 4096, !uri.utf8.contains(0) else { throw .invalidArgument("the store URI is too long or holds a NUL") }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &message) else {
            let detail = message.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(message)
            // libpq's message may quote the whole URI or the part it could not read (a password among them): it is said
            // only when the URI holds no credentials (user:secret@, wherever an @ is) and no parameters (?password=...).
            let quiet = uri.contains("@") || uri.contains("?")
            let said = quiet ? " (libpq's message is not repeated: it may quote the URI's credentials or parameters)" : ": \(detail.trimmingTrailingNewlines)"
            throw .invalidArgument("the store URI cannot be read" + said)
        }
        defer { PQconninfoFree(options) }
        var option = options
        var given: [String: String] = [:]
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            if Self.secrets.contains(String(cString: keyword)), let value = option.pointee.val, value.pointee != 0 {
                throw .invalidArgument(
                    "the store URI holds a password, which every local user could read on tenderd's command line or in its policy file; "
                        + "keep it in a passfile of mode 0600 (PGPASSFILE, or passfile= in the URI) or use peer authentication (docs/scale.md)")
            }
            option += 1
        }
        try Self.checkTransport(given)
        self.uri = uri
        redacted = Self.redact(uri)
    }

    /// Refuses a database reached over TCP without verifying the server's certificate (`sslmode=verify-ca` or
    /// `verify-full`, in the URI or PGSSLMODE): whoever answers on that address (on the network path, or a local user
    /// listening on the port while the server is down) would be handed the passfile's password (libpq sends it in
    /// clear when asked), read every person's rows and answer COMMIT for payments it never kept. A Unix socket
    /// (`host=/path`, or none given) is the server's own file, in a directory not every user may write, and is taken only with
    /// `requirepeer=` (in the URI or PGREQUIREPEER) naming the OS user the server runs as, which libpq checks on every connection.
    ///
    /// The parameters checked are the ones libpq will use: the URI's (an empty value included), else libpq's defaults
    /// (``PostgresLocation/defaults()``: PGHOST, PGHOSTADDR, PGSSLMODE and the like). A connection service (`service=` in the
    /// URI, or PGSERVICE, even empty) is refused:
    /// its file (pg_service.conf, PGSERVICEFILE, PGSYSCONFDIR) could name a TCP host and an sslmode libpq reads only when it
    /// connects, past this check.
    static func checkTransport(_ given: [String: String], defaults: [String: String] = PostgresLocation.defaults()) throws(TenderError) {
        // Given at all, even empty: libpq then looks the empty name up in the service files (a section `[]`), whose
        // parameters it reads when it connects.
        guard given["service"] == nil, defaults["service"] == nil, getenv("PGSERVICE") == nil else {
            throw .invalidArgument(
                "the store names a connection service (service= in the URI, or PGSERVICE), whose file could name a server over TCP "
                    + "without checking its certificate; give the host (and sslmode=verify-full) in the URI itself (docs/scale.md)")
        }
        // The URI's value when it gives one, even empty (`requirepeer=`, `host=`): libpq then uses it and not the default.
        func effective(_ name: String) -> String { given[name] ?? defaults[name, default: ""] }
        let host = effective("host")
        let address = effective("hostaddr")
        let tcp = !address.isEmpty || host.split(separator: ",", omittingEmptySubsequences: false).contains { entry in
            !entry.isEmpty && !entry.hasPrefix("/") && !entry.hasPrefix("@")
        }
        // A socket directory every user may write in (/tmp) lets a local user put a socket of theirs where the server's goes
        // (Debian's /run/postgresql, 2775 postgres:postgres, is written by the server's group only).
        // A socket in Linux's abstract namespace (`@name`) has no file and no permissions: any local user may bind that name
        // while the server is down (a restart, a failover) and be handed the password.
        guard !host.split(separator: ",").contains(where: { $0.hasPrefix("@") }) else {
            throw .invalidArgument(
                "the store URI names an abstract socket (@...), which any local user could bind while the server is down and be handed "
                    + "the password and every person's rows; use the server's own socket directory (/run/postgresql)")
        }
        for entry in host.split(separator: ",") where entry.hasPrefix("/") {
            var info = stat()
            guard stat(String(entry), &info) != 0 || info.st_mode & S_IWOTH == 0 else {
                throw .invalidArgument(
                    "the store URI's socket directory \(entry) is writable by every user, who could put a socket of theirs where the "
                        + "server's goes and be handed the password and every person's rows; use the server's own directory (/run/postgresql)")
            }
        }
        // A Unix socket (a directory named, or libpq's default one when no host is) is trusted only through libpq's own check
        // of the listening process's OS user (`requirepeer=`, or PGREQUIREPEER), made on every connection before anything is
        // sent: a directory that does not exist yet, or that an ordinary user owns (or could make, in a parent they may write),
        // could otherwise hold a socket of that user's, handed the password and every person's rows. A directory's owner
        // checked here would prove nothing about the socket libpq finds there later.
        // libpq's hosts, one per entry of `hostaddr` (else of `host`, else one): an entry without an address and with no host
        // name (`host=db.example,`, an empty entry) is libpq's default socket, as a host of `/path` or `@name` is a socket.
        let hosts = host.isEmpty ? [] : host.split(separator: ",", omittingEmptySubsequences: false)
        let addresses = address.isEmpty ? [] : address.split(separator: ",", omittingEmptySubsequences: false)
        let socket = (0..<max(hosts.count, addresses.count, 1)).contains { index in
            let name = index < hosts.count ? hosts[index] : ""
            return (index >= addresses.count || addresses[index].isEmpty) && (name.isEmpty || name.hasPrefix("/") || name.hasPrefix("@"))
        }
        guard !socket || !effective("requirepeer").isEmpty else {
            throw .invalidArgument(
                "the store URI reaches the database through a Unix socket without naming the server's OS user: a socket directory "
                    + "that does not exist yet, or that an ordinary user owns, could hold a socket of theirs, handed the password and "
                    + "every person's rows; add requirepeer=USER (the user the PostgreSQL server runs as, postgres on Debian), which "
                    + "libpq checks on every connection (docs/scale.md)")
        }
        guard tcp else { return }
        let mode = effective("sslmode")
        guard mode == "verify-full" || mode == "verify-ca" else {
            throw .invalidArgument(
                "the store URI reaches the database over TCP without checking the server's certificate: whoever answers on that "
                    + "address would be handed the password and every person's rows; add sslmode=verify-full (and the server's CA, "
                    + "sslrootcert=), or use the server's Unix socket (host=/run/postgresql&requirepeer=postgres) (docs/scale.md)")
        }
        // The certificate check is only as sound as the CA file libpq reads when it connects: one an ordinary user could write,
        // or put in place (in a directory of theirs, or one every user may write), would let them certify a server of theirs.
        let authority = effective("sslrootcert")
        if authority.hasPrefix("/"), let reason = Self.replaceable(authority) {
            throw .invalidArgument(
                "the store URI's CA file (sslrootcert=) \(authority) could be replaced by another user (\(reason)), who could then "
                    + "certify a server of theirs and be handed the password and every person's rows; keep it where only root writes "
                    + "(/etc/ssl/certs, /etc/postgresql-common) (docs/scale.md)")
        }
    }

    /// Why `path` (resolved, when it exists) could be written or replaced by a user other than root and this process's own:
    /// it, or a directory above it, belongs to another user, or may be written by every user (a sticky one such as /tmp only
    /// when what it should hold is not there yet); nil when none could. Parts that do not exist yet are judged by the
    /// directory that would hold them.
    static func replaceable(_ path: String) -> String? {
        var resolved = path
        if let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        }
        var prefix = resolved
        var childExists = false
        while true {
            var info = stat()
            let exists = stat(prefix, &info) == 0
            if exists {
                if info.st_uid != 0 && info.st_uid != getuid() { return "\(prefix) belongs to uid \(info.st_uid)" }
                // In a sticky directory only an entry's owner replaces it: one of root's (checked above) stays.
                if info.st_mode & S_IWOTH != 0, !(childExists && info.st_mode & S_ISVTX != 0) { return "\(prefix) is writable by every user" }
            }
            childExists = exists
            guard prefix != "/", let slash = prefix.lastIndex(of: "/") else { return nil }
            prefix = slash == prefix.startIndex ? "/" : String(prefix[..<slash])
        }
    }

    /// libpq's defaults for every connection keyword (PQconndefaults: its environment variables, PGHOST, PGSSLMODE...,
    /// and its built-in values); a keyword without one is left out.
    static func defaults() -> [String: String] {
        guard let options = PQconndefaults() else { return [:] }
        defer { PQconninfoFree(options) }
        var found: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { found[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return found
    }

    /// The connection keywords whose value is a secret (the role's password, the client key's passphrase).
    static let secrets: Set<String> = ["password", "sslpassword"]

    /// `uri` with any `user:secret@` credentials and the query string left out.
    static func redact(_ uri: String) -> String {
        guard let scheme = uri.firstRange(of: "://") else { return "postgresql://…" }
        var rest = uri[scheme.upperBound...]
        if let at = rest.firstIndex(of: "@"), !rest[..<at].contains("/") { rest = rest[rest.index(after: at)...] }
        if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
        return String(uri[..<scheme.upperBound]) + rest
    }

    /// A new connection (nil only when libpq is out of memory): the URI, with a 10 s connect timeout unless it gives one, its
    /// client encoding UTF-8 whatever it gives.
    func connect() -> OpaquePointer? {
        // client_encoding after the URI, so it wins over the URI's, PGCLIENTENCODING and the role's or database's default
        // (ALTER ... SET client_encoding): tenderd sends and reads UTF-8 only, and another encoding would have the server
        // convert its records' text (or refuse it) on the way.
        let keywords = ["connect_timeout", "dbname", "client_encoding"]
        let values = ["10", uri, "UTF8"]
        return withCStrings(keywords) { keys in
            withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
    }
}

/// Runs `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let constant = pointers.map { $0.map { UnsafePointer($0) } }
    return constant.withUnsafeBufferPointer { body($0.baseAddress) }
}
