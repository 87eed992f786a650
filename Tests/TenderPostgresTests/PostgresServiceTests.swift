// SPDX-License-Identifier: Apache-2.0
import Glibc
import TenderCore
import Testing

@testable import TenderPostgres

/// The connection parameters libpq will use, not only the URI's: a connection service (whose file may name a TCP host)
/// is refused, and the environment's defaults (PGHOST, PGSSLMODE...) are checked as libpq reports them.
struct PostgresServiceTests {
    @Test(arguments: ["postgresql:///tender?service=evil", "postgresql:///tender?host=/run/postgresql&service=tender"])
    func aServiceInTheURIIsRefused(uri: String) {
        #expect {
            _ = try PostgresLocation(uri)
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("connection service")
        }
    }

    @Test func aServiceOrATCPHostAmongLibpqsDefaultsIsChecked() throws {
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport([:], defaults: ["service": "evil"]) }
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport([:], defaults: ["host": "db.example", "sslmode": "prefer"]) }
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport([:], defaults: ["hostaddr": "10.0.0.1", "sslmode": "require"]) }
        // The URI's sslmode wins over the default, as in libpq; a verified server or a socket is taken.
        #expect(throws: TenderError.self) {
            try PostgresLocation.checkTransport(["sslmode": "disable"], defaults: ["host": "db.example", "sslmode": "verify-full"])
        }
        try PostgresLocation.checkTransport([:], defaults: ["host": "db.example", "sslmode": "verify-full"])
        try PostgresLocation.checkTransport(["host": "/run/postgresql", "requirepeer": "postgres"], defaults: ["host": "db.example", "sslmode": "prefer"])
        try PostgresLocation.checkTransport([:], defaults: ["sslmode": "prefer", "requirepeer": "postgres"])
    }

    /// Adversarial review: a host `@name` is a socket in Linux's abstract namespace (libpq 14+), which has no file nor
    /// permissions, so any local user may bind it while the server is down and be handed the passfile's password. It was
    /// taken as a socket (not TCP) and never checked.
    @Test(arguments: ["postgresql:///tender?host=@tender", "postgresql:///tender?host=/run/postgresql,@tender"])
    func anAbstractSocketIsRefused(uri: String) {
        #expect {
            _ = try PostgresLocation(uri)
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("abstract socket")
        }
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport([:], defaults: ["host": "@tender", "sslmode": "prefer"]) }
    }

    /// Adversarial review (advmends): a parameter the URI gives empty (`requirepeer=`, `hostaddr=`) was checked as the
    /// environment's default (PGREQUIREPEER, PGHOSTADDR), while libpq uses the empty value: with PGREQUIREPEER=postgres in
    /// tenderd's environment, `?host=/dir&requirepeer=` passed the check and libpq checked no peer (tried by hand: a socket of
    /// root's, not postgres's, was sent the startup packet). An empty `service=` (or PGSERVICE set empty) makes libpq read the
    /// section `[]` of its service files (tried by hand: a TCP host with sslmode=disable), and passed as no service.
    @Test func anEmptyValueTheURIGivesIsTheOneLibpqUses() throws {
        #expect(throws: TenderError.self) {
            try PostgresLocation.checkTransport(["host": "/run/postgresql", "requirepeer": ""], defaults: ["requirepeer": "postgres"])
        }
        // An empty hostaddr is no address: libpq's default socket, without requirepeer.
        #expect(throws: TenderError.self) {
            try PostgresLocation.checkTransport(["hostaddr": "", "sslmode": "verify-full"], defaults: ["hostaddr": "10.0.0.1"])
        }
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport(["requirepeer": "postgres"], defaults: ["service": ""]) }
        #expect {
            _ = try PostgresLocation("postgresql:///tender?service=&requirepeer=postgres")
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("connection service")
        }
        // What the URI gives, non-empty, still wins over the defaults; the defaults still count when it gives nothing.
        try PostgresLocation.checkTransport(["host": "/run/postgresql", "requirepeer": "postgres"], defaults: ["requirepeer": ""])
        try PostgresLocation.checkTransport(["host": "/run/postgresql"], defaults: ["requirepeer": "postgres"])
    }

    /// Adversarial review (advmends): an empty entry in a list of hosts or addresses (`postgresql://db.example,/tender`, a
    /// trailing comma) is libpq's default socket (/var/run/postgresql, tried by hand), reached without requirepeer: the
    /// check counted a socket only for a `/path` entry or no host at all.
    @Test(arguments: [
        "postgresql://db.example,/tender?sslmode=verify-full", "postgresql://,db.example/tender?sslmode=verify-full",
        "postgresql:///tender?host=db.example,&sslmode=verify-full", "postgresql:///tender?hostaddr=10.0.0.1,&sslmode=verify-full",
        "postgresql:///tender?host=db1.example,&hostaddr=10.0.0.1,&sslmode=verify-full",
    ])
    func anEmptyEntryAmongTheHostsIsLibpqsDefaultSocket(uri: String) throws {
        #expect {
            _ = try PostgresLocation(uri)
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("requirepeer=USER")
        }
        _ = try PostgresLocation(uri + "&requirepeer=postgres")
    }

    /// Adversarial review (advmends): sslmode=verify-full was taken whatever CA file it trusts: `sslrootcert=` in a directory
    /// every user may write (or one of an ordinary user's) lets that user put a CA of theirs there, certify a server of
    /// theirs and be handed the password. Root's and the process's own files are taken.
    @Test func aCAFileAnotherUserCouldReplaceIsRefused() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/tender-ca-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { rmdir(directory) }
        let tcp = ["host": "db.example", "sslmode": "verify-full"]
        try PostgresLocation.checkTransport(tcp.merging(["sslrootcert": "\(directory)/ca.pem"]) { $1 }, defaults: [:])
        try PostgresLocation.checkTransport(tcp.merging(["sslrootcert": "/etc/ssl/certs/ca-certificates.crt"]) { $1 }, defaults: [:])
        chmod(directory, 0o1777)
        #expect {
            try PostgresLocation.checkTransport(tcp.merging(["sslrootcert": "\(directory)/ca.pem"]) { $1 }, defaults: [:])
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("writable by every user")
        }
        // From the environment (PGSSLROOTCERT) as well.
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport(tcp, defaults: ["sslrootcert": "\(directory)/x/ca.pem"]) }
        chmod(directory, 0o755)
        // A directory of another user's (root runs the tests: one given to nobody).
        if getuid() == 0 {
            chown(directory, 65534, 65534)
            #expect(throws: TenderError.self) {
                try PostgresLocation.checkTransport(tcp.merging(["sslrootcert": "\(directory)/ca.pem"]) { $1 }, defaults: [:])
            }
        }
    }

    @Test func libpqsDefaultsComeFromItsEnvironment() {
        // PQconndefaults reports its keywords (with or without values): at least the ones checked here are known to it.
        let defaults = PostgresLocation.defaults()
        #expect(defaults["sslmode"] != nil)
    }
}
