// SPDX-License-Identifier: Apache-2.0
import TenderCore
import Testing

@testable import TenderPostgres

/// `--store` and the policy's `"store"`: a connection URI that never carries a password.
struct PostgresLocationTests {
    @Test func aURIWithoutAPasswordIsTakenAndPrintedWithoutItsQuery() throws {
        let location = try PostgresLocation("postgresql://tender@db.example:5432/tender?sslmode=verify-full")
        #expect(location.redacted == "postgresql://db.example:5432/tender")
        #expect(try PostgresLocation("postgresql:///tender?host=/run/postgresql").redacted == "postgresql:///tender")
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
    ])
    func aServerOverTCPWhoseCertificateIsNotCheckedOrASocketInASharedDirectoryIsRefused(uri: String) {
        #expect(throws: TenderError.self) { _ = try PostgresLocation(uri) }
    }

    @Test func aUnixSocketOrAVerifiedServerIsTaken() throws {
        _ = try PostgresLocation("postgresql:///tender")
        _ = try PostgresLocation("postgresql:///tender?host=/run/postgresql,/nonexistent-socket-directory")
        _ = try PostgresLocation("postgresql://db.example/tender?sslmode=verify-ca")
    }

    @Test(arguments: ["host=db dbname=tender", "sqlite:///x", "postgresql://db/tender?nosuchoption=1", "postgresql://[::1/x"])
    func anythingButAReadablePostgresURIIsRefused(uri: String) {
        #expect(throws: TenderError.self) { _ = try PostgresLocation(uri) }
    }
}
