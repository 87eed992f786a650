// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderCrypto

@testable import TenderPostgres

/// The PostgreSQL store's signer starts its batch (and the batch's worker, spinning until a message comes) at the first
/// message, not when the store's transaction opens the batch and goes on to wait for the server's answers.
struct LateStartSignerTests {
    /// A signer counting the batches it started, signing as `signer` does.
    final class Counting: RecordSigner, @unchecked Sendable {
        let signer: any RecordSigner
        let started = Mutex(0)
        init(_ signer: any RecordSigner) { self.signer = signer }
        var keyID: String { signer.keyID }
        func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try signer.sign(message) }
        func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try signer.seal(message) }
        func startBatch(capacity: Int) -> any SigningBatch {
            started.withLock { $0 += 1 }
            return signer.startBatch(capacity: capacity)
        }
    }

    private static func signer() throws -> any RecordSigner {
        let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let base = "\(temporary)/tender-late-start-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(base, 0o700) == 0 else { throw TenderError.internal("cannot make \(base)") }
        let keys = try KeyDirectory(home: base, create: true)
        return try keys.signer(keyID: try keys.createKey().keyID)
    }

    @Test func aBatchStartsAtItsFirstMessageAndSignsAsItsSigner() throws {
        let inner = Counting(try Self.signer())
        let late = LateStartSigner(signer: inner)
        let batch = late.startBatch(capacity: 2)
        #expect(inner.started.withLock { $0 } == 0)  // opened: nothing started while the transaction reads
        try batch.add(Array("first".utf8))
        #expect(inner.started.withLock { $0 } == 1)
        try batch.add(Array("second".utf8))
        let signatures = try batch.finish()
        #expect(signatures == [try inner.sign(Array("first".utf8)), try inner.sign(Array("second".utf8))])
        #expect(inner.started.withLock { $0 } == 1)
        // A batch given no message starts nothing and signs nothing.
        let empty = late.startBatch(capacity: 1)
        #expect(try empty.finish() == [])
        #expect(inner.started.withLock { $0 } == 1)
        #expect(late.keyID == inner.keyID)
    }

    /// The batch a key of this machine starts for the store waits asleep between messages (``SigningWait/sleeping``): the
    /// store waits for the server there, on the cores the server needs; at 4feb634 its worker spun through those waits.
    @Test func aKeysBatchWaitsAsleepBetweenMessages() throws {
        let late = LateStartSigner(signer: try Self.signer())
        guard let batch = late.startBatch(capacity: 2) as? LateStartSigner.Batch else { Issue.record("not the late-start batch"); return }
        try batch.add(Array("first".utf8))
        #expect((batch.started as? ParallelSigningBatch)?.waiting == .sleeping)
        try batch.add(Array("second".utf8))
        #expect(try batch.finish() == [try late.sign(Array("first".utf8)), try late.sign(Array("second".utf8))])
    }
}
