// SPDX-License-Identifier: Apache-2.0
import TenderCore
import Testing

@testable import TenderPostgres

/// `--store` and the policy's `"store"`: a connection URI that never carries a password.
struct PostgresLocationTests {
    @Test func aURIWithoutAPasswordIsTakenAndPrintedWithoutItsQuery() throws {
        let location = try PostgresLocation("postgresql://tender@db.example:5432/tender?sslmode=verify-full")
        #expect(location.redacted == "postgresql://db.example:5432/tender")
        #expect(try PostgresLocation("postgresql:///tender?host=/run/postgresql&requirepeer=postgres").redacted == "postgresql:///tender")
    }

    @Test(arguments: [
        "postgresql://tender:hunter2@db.example/tender", "postgresql://db.example/tender?password=hunter2",
        "postgres://tender:hunter2@/tender?host=/run/postgresql",
    ])
    func aPasswordIsRefusedAndNotRepeated(uri: String) {
        do {
            _ = try PostgresLocation(uri)
            Issue.record("a URI with a password was taken")
        } catch {
            guard case let .invalidArgument(message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!message.contains("hunter2"))
            #expect(message.contains("passfile"))
        }
    }

    @Test(arguments: [
        "postgresql://db.example/tender", "postgresql://db.example/tender?sslmode=require", "postgresql:///tender?host=127.0.0.1",
        "postgresql:///tender?host=/run/postgresql,db.example", "postgresql:///tender?hostaddr=10.0.0.1&host=/run/postgresql",
        "postgresql://db.example/tender?sslmode=prefer&sslpassword=hunter2", "postgresql:///tender?host=/tmp",
        // Adversarial review (advmends), held: a parameter given twice is its last value, in the check as in libpq.
        "postgresql://db.example/tender?sslmode=verify-full&sslmode=disable",
    ])
    func aServerOverTCPWhoseCertificateIsNotCheckedOrASocketInASharedDirectoryIsRefused(uri: String) {
        #expect(throws: TenderError.self) { _ = try PostgresLocation(uri) }
    }

    @Test func aUnixSocketOrAVerifiedServerIsTaken() throws {
        _ = try PostgresLocation("postgresql:///tender?requirepeer=postgres")
        _ = try PostgresLocation("postgresql:///tender?host=/run/postgresql,/nonexistent-socket-directory&requirepeer=postgres")
        _ = try PostgresLocation("postgresql://db.example/tender?sslmode=verify-ca")
    }

    /// noticed.md: a socket directory that does not exist yet, or that an ordinary user owns, passed the socket check, so
    /// that user could put a socket of theirs there and be handed the password. A Unix socket is taken only with libpq's
    /// check of the server's OS user (requirepeer=), made on every connection; the default socket (no host) too.
    @Test(arguments: [
        "postgresql:///tender", "postgresql:///tender?host=/run/postgresql", "postgresql:///tender?host=/nonexistent-socket-directory",
        "postgresql:///tender?host=/run/postgresql,/nonexistent-socket-directory&requirepeer=", "postgresql://%2Fvar%2Frun%2Fpostgresql/tender",
        "postgresql://db.example,%2Frun%2Fpostgresql/tender?sslmode=verify-full",
        "postgresql:///tender?host=/run/postgresql&requirepeer=postgres&requirepeer=",
    ])
    func aUnixSocketWithoutTheServersUserIsRefused(uri: String) {
        #expect {
            _ = try PostgresLocation(uri)
        } throws: { error in
            guard case let .invalidArgument(message) = error as? TenderError else { return false }
            return message.contains("requirepeer=USER")
        }
        // The same with the server's user named, and with no socket at all, is taken.
        let named = uri + (uri.hasSuffix("=") ? "postgres" : uri.contains("?") ? "&requirepeer=postgres" : "?requirepeer=postgres")
        #expect((try? PostgresLocation(named)) != nil)
    }

    @Test func requirepeerFromTheEnvironmentCountsAsLibpqReadsIt() throws {
        #expect(throws: TenderError.self) { try PostgresLocation.checkTransport(["host": "/run/postgresql"], defaults: [:]) }
        try PostgresLocation.checkTransport(["host": "/run/postgresql"], defaults: ["requirepeer": "postgres"])
        try PostgresLocation.checkTransport(["host": "db.example", "sslmode": "verify-full"], defaults: [:])
    }

    @Test(arguments: ["host=db dbname=tender", "sqlite:///x", "postgresql://db/tender?nosuchoption=1", "postgresql://[::1/x"])
    func anythingButAReadablePostgresURIIsRefused(uri: String) {
        #expect(throws: TenderError.self) { _ = try PostgresLocation(uri) }
    }
}
