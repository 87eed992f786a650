// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
import TenderStore
import TenderWiring

/// Issue 34, lever 2, on a real store: a confirm may reuse its resolve's reading only while the store is unchanged, so
/// every change between the two (a directory edit, a payment, another connection's write: another process's, as
/// SQLite sees it) is still seen by confirm. Each test confirms once first, so the session's reading holds everything
/// a confirm reads (the paying account, the signed-in flag), then changes the store and confirms again.
@Suite struct ConfirmReadingReuseTests: ConfirmReadingTesting {
    private static let poorer = """
        {"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "5.00", "currency": "USD"}, "default": true}]}
        """

    @Test func nothingChangedConfirmAnswersAsBefore() throws {
        let home = TemporaryHome()
        let (engine, _) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        #expect(try session.handle().record != nil)
    }

    @Test func aDirectoryEditBetweenResolveAndConfirmIsSeen() throws {
        let home = TemporaryHome()
        let (engine, store) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.poorer)))
        #expect(try session.confirm().code == .failureInsufficientFunds)
    }

    @Test func aPaymentBetweenResolveAndConfirmIsSeen() throws {
        let home = TemporaryHome()
        let (engine, _) = try engine(home)
        let session = try session(engine, amount: "60")
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        let other = try self.session(engine, amount: "60")
        #expect(try other.confirm().code == .ready)
        #expect(try other.handle().record != nil)
        #expect(try session.confirm().code == .failureInsufficientFunds)
    }

    /// Another connection on the same file (another process, as far as SQLite knows) signs the person out.
    @Test func anotherConnectionsWriteBetweenResolveAndConfirmIsSeen() throws {
        let home = TemporaryHome()
        let (engine, _) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        #expect(try session.confirm().code == .ready)
        let other = try EngineFactory.openStore(home: home.path + "/home", access: .readWrite(newLedger: false))
        try other.setSignedIn(false)
        #expect(try session.confirm().code == .failureCredentialsUnverified)
        try other.setSignedIn(true)
        #expect(try session.confirm().code == .ready)
    }
}
