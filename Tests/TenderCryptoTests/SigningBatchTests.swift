// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderCrypto
import TenderTestSupport

/// Batches signed while they are built: the same signatures as one at a
/// time (Ed25519 is deterministic), in order, whoever signs them.
@Suite struct SigningBatchTests {
    let key: Ed25519PrivateKey
    let signer: Ed25519Signer

    init() throws {
        key = try Ed25519PrivateKey(seed: [UInt8](repeating: 7, count: 32))
        signer = try Ed25519Signer(key: key)
    }

    private func messages(_ count: Int, tag: UInt8 = 0) -> [[UInt8]] {
        (0..<count).map { [tag] + Array("record \($0)".utf8) + [UInt8](repeating: UInt8($0 % 251), count: 700) }
    }

    @Test(arguments: [0, 1, 2, 8, 33])
    func aBatchSignsLikeOneAtATimeInOrder(count: Int) throws {
        let batch = signer.startBatch(capacity: count)
        defer { batch.abandon() }
        let messages = messages(count)
        for message in messages { try batch.add(message) }
        #expect(try batch.finish() == messages.map { try key.sign($0) })
    }

    @Test func aBatchNeedNotBeFull() throws {
        let batch = signer.startBatch(capacity: 10)
        let messages = messages(3)
        for message in messages { try batch.add(message) }
        #expect(try batch.finish() == messages.map { try key.sign($0) })
        batch.abandon()
    }

    @Test func moreThanTheCapacityOrAfterTheEndIsRefused() throws {
        let batch = signer.startBatch(capacity: 2)
        try batch.add([1])
        try batch.add([2])
        #expect(throws: TenderError.self) { try batch.add([3]) }
        _ = try batch.finish()
        #expect(throws: TenderError.self) { try batch.add([4]) }
        #expect(throws: TenderError.self) { try batch.finish() }
    }

    @Test func anAbandonedBatchFreesThePoolForTheNext() throws {
        for _ in 0..<20 {
            let abandoned = signer.startBatch(capacity: 8)
            try abandoned.add([1])
            abandoned.abandon()
            abandoned.abandon()
        }
        // A batch dropped without a word releases the pool too.
        do {
            let dropped = signer.startBatch(capacity: 8)
            try dropped.add([2])
        }
        let batch = signer.startBatch(capacity: 4)
        let messages = messages(4)
        for message in messages { try batch.add(message) }
        #expect(try batch.finish() == messages.map { try key.sign($0) })
        // The pool is free again: a loop over it runs to the end instead of waiting forever.
        let ran = Atomic<Int>(0)
        WorkerPool.shared.forEach(16) { _ in ran.add(1, ordering: .relaxed) }
        #expect(ran.load(ordering: .relaxed) == 16)
    }

    @Test func aFullBatchLetsItsWorkersGoBeforeItFinishes() throws {
        let batch = ParallelSigningBatch(key: key, capacity: 2)
        defer { batch.abandon() }
        let messages = messages(2)
        for message in messages { try batch.add(message) }
        // Nothing more can be added, so no worker spins on until finish. (When the pool was busy, the batch used none.)
        var waited = 0
        while batch.usesWorkers, WorkerPool.shared.runningWorkers > 0, waited < 2_000 {
            usleep(1_000)
            waited += 1
        }
        #expect(!batch.usesWorkers || WorkerPool.shared.runningWorkers == 0)
        #expect(try batch.finish() == messages.map { try key.sign($0) })
    }

    @Test func batchesFromSeveralThreadsAtOnceAreEachRight() throws {
        let failures = Atomic<Int>(0)
        let signer = self.signer
        let key = self.key
        let threads = (0..<4).map { tag in
            TestThread {
                for round in 0..<10 {
                    let messages = self.messages(6, tag: UInt8(tag * 16 + round))
                    let batch = signer.startBatch(capacity: messages.count)
                    do {
                        for message in messages { try batch.add(message) }
                        if try batch.finish() != messages.map({ try key.sign($0) }) { failures.add(1, ordering: .relaxed) }
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                    batch.abandon()
                }
            }
        }
        for thread in threads { thread.join() }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
    /// A worker the scheduler stops inside a signature (a busy machine) holds the batch's finish no longer than
    /// ``ParallelSigningBatch/stealAfterNanoseconds``: the caller signs that message itself, to the same signature.
    @Test(arguments: [SigningWait.spinning, .sleeping])
    func aWorkerHeldInsideASignatureDoesNotHoldFinish(waiting: SigningWait) throws {
        final class Gate: Sendable {
            let entered = Atomic<Bool>(false)
            let open = Atomic<Bool>(false)
            let finished = Atomic<Bool>(false)
        }
        let key = self.key
        let message = messages(1)[0]
        let caller = pthread_self()
        for _ in 0..<100 {
            let gate = Gate()
            let batch = ParallelSigningBatch(capacity: 1, waiting: waiting) { (bytes) throws(TenderError) in
                if pthread_equal(pthread_self(), caller) == 0 {
                    gate.entered.store(true, ordering: .sequentiallyConsistent)
                    while !gate.open.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
                }
                return try key.sign(bytes)
            }
            guard batch.usesWorkers else {
                // Another test holds the pool: this batch signs alone; try again.
                batch.abandon()
                usleep(5_000)
                continue
            }
            try batch.add(message)
            var waited = 0
            while !gate.entered.load(ordering: .sequentiallyConsistent), waited < 5_000 {
                usleep(1_000)
                waited += 1
            }
            let entered = gate.entered.load(ordering: .sequentiallyConsistent)
            #expect(entered, "the worker never took the message")
            // Opens the gate after 3 s at the latest, so a finish that waits for the worker ends (and the test fails).
            let opener = TestThread {
                var slept = 0
                while !gate.finished.load(ordering: .sequentiallyConsistent), slept < 3_000 {
                    usleep(1_000)
                    slept += 1
                }
                gate.open.store(true, ordering: .sequentiallyConsistent)
            }
            let signatures = try batch.finish()
            let heldStill = !gate.open.load(ordering: .sequentiallyConsistent)
            gate.finished.store(true, ordering: .sequentiallyConsistent)
            opener.join()
            #expect(heldStill, "finish waited for the held worker")
            #expect(signatures == [try key.sign(message)])
            return
        }
        Issue.record("the pool was never free for this test's batch")
    }
}
