// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Adversary of issue 34, lever 1 (checkpoints off the payment's path): a worker that cannot checkpoint (its connection
/// refused, another connection checkpointing the same file), a store closed while a reader pins the log and its
/// checkpoint is due, stores opened and closed from many threads at once. Never a payment lost, never a hang, the log
/// bounded by the committer, the workers bounded and gone once nothing is due. Each holds on 05b6bd5.
@Suite(.serialized) struct SQLiteCheckpointAdversaryTests: CheckpointTesting {
    /// The store file loosened after the engine opened it (group-writable: another user could have put pages in it):
    /// the worker's connection is refused (``LazyReader``), so no worker checkpoints that file; the committer checkpoints
    /// at the bound, the log stays bounded, every payment is kept, and the refusals are counted.
    @Test func aWorkerRefusedItsConnectionLeavesTheCommitterToCheckpointAtTheBound() throws {
        let home = TemporaryHome()
        let file = home.path + "/tender.sqlite3"
        let store = try store(home)
        store.checkpointFrames(worker: 20, committer: 200)
        chmod(file, 0o620)
        for index in 0..<200 { try pay(store, "refused-\(index)") }
        let counts = store.checkpointCounts
        #expect(counts.background == 0)
        #expect(counts.failed >= 1)
        #expect(counts.inline >= 1)
        #expect((size(file + "-wal") ?? .max) < 260 * 4120 + 32)
        chmod(file, 0o600)
        #expect(try store.records().count == 200)
        #expect(try store.verify().resigned.isEmpty)
    }

    /// Two stores on one file (two engines on one home, another process as SQLite sees it), both paying with workers due
    /// often: their checkpoints meet (one is refused SQLITE_BUSY, counted) and neither loses a payment.
    @Test func twoStoresCheckpointingOneFileLoseNothing() throws {
        let home = TemporaryHome()
        let first = try store(home)
        let second = try store(home, importing: false)
        first.checkpointFrames(worker: 4, committer: 400)
        second.checkpointFrames(worker: 4, committer: 400)
        let payers = [first, second].enumerated().map { index, store in
            TestThread { for n in 0..<150 { try? pay(store, "two-\(index)-\(n)") } }
        }
        for payer in payers { payer.join() }
        #expect(eventually { first.checkpointCounts.background + second.checkpointCounts.background >= 2 })
        #expect(try first.records().count == 300)
        // Both verify the whole chain. A record of one store's last batch may still wait for its signature (that store
        // stores it with its next write): the other's verify computes the same JWS from its seal and names it under
        // `resigned`, as it would for another process's (ledger.md); which records do depends on the timing.
        let (firstReport, secondReport) = (try first.verify(), try second.verify())
        #expect(firstReport.count == secondReport.count)
    }

    /// A reader pins the log (a long `tender list` in another process) while payments make a checkpoint due, and the
    /// store is closed with its checkpoint queued or running: the close returns (no wait on the reader), the reader still
    /// reads its snapshot, and once it ends the home reopens with every payment and verifies.
    @Test func closingWhileAReaderPinsTheLogNeitherHangsNorLoses() throws {
        let home = TemporaryHome()
        _ = try store(home)  // the directory, closed at once
        let reader = try SQLiteStoreTests.openStore(home.path)
        var paid = 0
        let inside = { () throws -> Void in
            let seen = try reader.records().count
            for round in 0..<4 {
                var store: SQLiteStore? = try SQLiteStoreTests.openStore(home.path)
                store?.checkpointFrames(worker: 5, committer: 100_000)
                for index in 0..<40 {
                    try pay(store!, "pinned-close-\(round)-\(index)")
                    paid += 1
                }
                let started = time(nil)
                store = nil
                #expect(time(nil) - started < 5)
            }
            #expect(try reader.records().count == seen)  // its snapshot, unmoved by the checkpoints
        }
        try reader.readingTogether { () throws(TenderError) in
            do { try inside() } catch { throw (error as? TenderError) ?? .internal("\(error)") }
        }
        #expect(try reader.records().count == paid)
        #expect(try reader.verify().resigned.isEmpty)
    }

    /// Eight host threads each open a store of their own home, pay until its checkpoint is due and close it, many times
    /// over: closes race the shared workers' queue. No crash, never more than two workers, none left once all are closed,
    /// no log left behind, every payment kept.
    @Test func storesOpenedAndClosedFromManyThreadsAtOnce() throws {
        let homes = (0..<8).map { _ in TemporaryHome() }
        for home in homes { _ = try store(home) }
        let most = PthreadLocked(0)
        let failures = PthreadLocked<[String]>([])
        let paths = homes.map(\.path)
        let threads = paths.enumerated().map { index, path in
            TestThread {
                for round in 0..<6 {
                    do {
                        let store = try SQLiteStoreTests.openStore(path)
                        store.checkpointFrames(worker: 3, committer: 100_000)
                        for n in 0..<12 { try pay(store, "many-\(index)-\(round)-\(n)") }
                        let live = SQLiteStore.checkpointThreads.live
                        most.withLock { $0 = max($0, live) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        for thread in threads { thread.join() }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(most.withLock { $0 } <= 2)
        #expect(eventually { SQLiteStore.checkpointThreads.live == 0 })
        for path in paths {
            // Checkpointed whole at the close, the log kept empty (not removed: size() is nil for a missing file).
            #expect(size(path + "/tender.sqlite3-wal") == 0)
            let store = try SQLiteStoreTests.openStore(path)
            #expect(try store.records().count == 72)
        }
    }
}
