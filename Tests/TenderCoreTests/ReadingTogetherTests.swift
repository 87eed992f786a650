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
