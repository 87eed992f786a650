// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderTestSupport
import Testing
import TenderCore
import TenderStore
import TenderWiring

/// Adversary of issue 34, lever 2 (a confirm reusing its resolve's reading while the store's mark is unchanged): every
/// change between the two that the mark must see, made where `PRAGMA data_version` alone cannot see it (this store's own
/// writing connection, from another thread) or by another engine on the same home, and the reading reused only when the
/// answer is the same. Each holds on 05b6bd5.
@Suite struct ConfirmReadingReuseAdversaryTests: ConfirmReadingTesting {

    /// Runs `body` on another thread and waits for it (a host thread of the same process, its own call).
    private func onAnotherThread(_ body: @escaping @Sendable () throws -> Void) {
        let failure = Mutex<String?>(nil)
        let thread = TestThread {
            do { try body() } catch { failure.withLock { $0 = "\(error)" } }
        }
        thread.join()
        #expect(failure.withLock { $0 } == nil)
    }

    /// The store's own writing connection signs the person out, from another host thread, between resolve and confirm:
    /// `PRAGMA data_version` on that connection does not move for its own commits, so only the store's write count can
    /// tell; confirm must not agree on the reading from before.
    @Test func theStoresOwnWriteFromAnotherThreadIsSeen() throws {
        let home = TemporaryHome()
        let (engine, store) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        onAnotherThread { try store.setSignedIn(false) }
        #expect(try session.confirm().code == .failureCredentialsUnverified)
        onAnotherThread { try store.setSignedIn(true) }
        #expect(try session.confirm().code == .ready)
        // Its own directory edit on the same connection: the balance falls below the amount.
        let poorer = #"{"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking", "balance": {"amount": "5.00", "currency": "USD"}, "default": true}]}"#
        onAnotherThread { try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(poorer))) }
        #expect(try session.confirm().code == .failureInsufficientFunds)
    }

    /// The mark itself: this store's own write moves it though `data_version` on its connection stays the same.
    @Test func theMarkMovesForTheStoresOwnWritesWhichDataVersionDoesNotCount() throws {
        let home = TemporaryHome()
        let (_, store) = try engine(home)
        let before = try #require(try store.readingTogether { () throws(TenderError) in try store.stateMark() })
        onAnotherThread { try store.setSignedIn(false) }
        let after = try #require(try store.readingTogether { () throws(TenderError) in try store.stateMark() })
        #expect(before != after)
    }

    /// Another engine on the same home (the engine cache's second engine, a second host library instance: its own
    /// connections) removes the payee between resolve and confirm: confirm does not agree to pay a contact that is gone.
    @Test func aPayeeRemovedByAnotherEngineOnTheSameHomeIsSeen() throws {
        let home = TemporaryHome()
        let (engine, _) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        let (_, other) = try self.engine(home, importing: false)
        try other.removeFromDirectory(DirectoryRemoval(contacts: ["tim-cook"]))
        // Refused: the payee no longer resolves (an error, or a code other than ready), and nothing can be handled.
        #expect((try? session.confirm().code) != .ready)
        #expect(throws: TenderError.self) { try session.handle() }
    }

    /// Another engine on the same home pays between this session's resolve and its confirm: confirm sees the balance
    /// that payment left, and no second payment draws past it.
    @Test func aPaymentByAnotherEngineOnTheSameHomeIsSeen() throws {
        let home = TemporaryHome()
        let (engine, _) = try engine(home)
        let session = try session(engine, amount: "60")
        _ = try session.resolve()
        let (otherEngine, _) = try self.engine(home, importing: false)
        let other = try self.session(otherEngine, amount: "60")
        #expect(try other.confirm().code == .ready)
        #expect(try other.handle().record != nil)
        #expect(try session.confirm().code == .failureInsufficientFunds)
        #expect(throws: TenderError.self) { try session.handle() }
    }

    /// A key rotated (by the store, between resolve and confirm) moves the mark; confirm answers as before and the
    /// payment is signed by the new key and verifies.
    @Test func aKeyRotatedBetweenResolveAndConfirmStillPaysAndVerifies() throws {
        let home = TemporaryHome()
        let (engine, store) = try engine(home)
        let session = try session(engine, amount: "50")
        _ = try session.resolve()
        let before = try #require(try store.readingTogether { () throws(TenderError) in try store.stateMark() })
        _ = try store.rotateKey()
        #expect(try store.readingTogether { () throws(TenderError) in try store.stateMark() } != before)
        #expect(try session.confirm().code == .ready)
        #expect(try session.handle().record != nil)
        #expect(try store.verify().resigned.isEmpty)
    }
}
