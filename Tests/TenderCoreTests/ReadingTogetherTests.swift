// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// Issue 34.2: a session call reads the directory inside one `readingTogether` (one read transaction
/// in the store), not one transaction per read; handle's reads and a custom intent's are not held.
@Suite struct ReadingTogetherTests {
    @Test func resolveAndConfirmEachReadTheDirectoryInOneCall() throws {
        let (engine, directory, _) = try Fixtures.engine()
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"50","currency":"USD"}}"#, engine: engine)
        _ = try session.resolve()
        var seen = directory.together.withLock { $0 }
        #expect(seen.calls == 1 && seen.depth == 0)
        #expect(seen.readsInside >= 1 && seen.readsOutside == 0)
        let inside = seen.readsInside
        let (code, _) = try session.confirm()
        seen = directory.together.withLock { $0 }
        #expect(seen.calls == 2 && seen.depth == 0)
        #expect(seen.readsInside > inside && seen.readsOutside == 0)
        #expect(code == .ready)
    }
}

/// Issue 34, lever 2: a session call reuses the last call's reading while the directory's mark says nothing changed
/// (``Directory/stateMark()``); a changed mark, or none, reads again.
@Suite struct ReadingReuseTests {
    private static let intent = #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"50","currency":"USD"}}"#

    /// The directory reads a confirm right after its resolve makes, with the directory's mark or without one.
    private func confirmReads(marked: Bool) throws -> Int {
        let (engine, directory, _) = try Fixtures.engine()
        if marked { directory.bumpMark() }
        let session = try Fixtures.session(Self.intent, engine: engine)
        _ = try session.resolve()
        let inside = directory.together.withLock { $0.readsInside }
        #expect(try session.confirm().code == .ready)
        #expect(directory.together.withLock { $0.readsOutside } == 0)
        return directory.together.withLock { $0.readsInside } - inside
    }

    /// Fails on 2467df6: confirm read again everything its resolve had read.
    @Test func confirmReadsOnlyWhatResolveDidNotWhileTheMarkHolds() throws {
        let fresh = try confirmReads(marked: false)
        let reused = try confirmReads(marked: true)
        #expect(reused < fresh)
        // The paying account and the signed-in flag: the two reads resolve does not make.
        #expect(reused <= 2)
    }

    /// The balance falls between resolve and confirm (a payment, another process), with the mark moved: confirm sees it.
    @Test func aChangeBetweenResolveAndConfirmIsSeen() throws {
        let (engine, directory, _) = try Fixtures.engine()
        directory.bumpMark()
        let session = try Fixtures.session(Self.intent, engine: engine)
        _ = try session.resolve()
        let inside = directory.together.withLock { $0.readsInside }
        directory.setBalance("checking", minorUnits: 10_00)
        directory.bumpMark()
        let (code, _) = try session.confirm()
        #expect(code == .failureInsufficientFunds)
        #expect(directory.together.withLock { $0.readsInside } - inside >= 2)
    }

    /// A directory that cannot tell (no mark: a host's) is read again by every call, as before.
    @Test func withoutAMarkEveryCallReadsAgain() throws {
        let (engine, directory, _) = try Fixtures.engine()
        let session = try Fixtures.session(Self.intent, engine: engine)
        _ = try session.resolve()
        let inside = directory.together.withLock { $0.readsInside }
        directory.setBalance("checking", minorUnits: 10_00)
        #expect(try session.confirm().code == .failureInsufficientFunds)
        #expect(directory.together.withLock { $0.readsInside } - inside >= 2)
    }
}
