// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderCrypto
import TenderTestSupport

/// A batch whose worker waits asleep (``SigningWait/sleeping``, tenderd's PostgreSQL store): between two messages, while
/// its caller waits for the server, the worker takes no CPU (a spinning one took a whole core's share, on the 2 cores the
/// server needs); it still signs every message the moment it comes, the same signatures in order, lets its caller steal
/// a signature it holds too long, and returns when the batch is abandoned.
@Suite struct SleepingSigningBatchTests {
    let key: Ed25519PrivateKey

    init() throws { key = try Ed25519PrivateKey(seed: [UInt8](repeating: 9, count: 32)) }

    private func messages(_ count: Int) -> [[UInt8]] {
        (0..<count).map { Array("record \($0)".utf8) + [UInt8](repeating: UInt8($0 % 251), count: 700) }
    }

    /// The CPU time, in nanoseconds, of the thread whose CPU clock is `clock`.
    private static func cpuNanoseconds(_ clock: clockid_t) -> Int {
        var now = timespec()
        clock_gettime(clock, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    @Test func aSleepingWorkerTakesNoCPUBetweenMessages() throws {
        let key = self.key
        let messages = messages(2)
        let caller = pthread_self()
        for _ in 0..<100 {
            // The worker's CPU clock, noted when it signs the first message.
            let workerClock = Mutex<clockid_t?>(nil)
            let batch = ParallelSigningBatch(capacity: 2, waiting: .sleeping) { (bytes) throws(TenderError) in
                if pthread_equal(pthread_self(), caller) == 0 {
                    var clock = clockid_t()
                    if pthread_getcpuclockid(pthread_self(), &clock) == 0 { workerClock.withLock { $0 = clock } }
                }
                return try key.sign(bytes)
            }
            guard batch.usesWorkers else {
                // Another test holds the pool: this batch signs alone; try again.
                batch.abandon()
                usleep(5_000)
                continue
            }
            #expect(batch.waiting == .sleeping)
            try batch.add(messages[0])
            var waited = 0
            while workerClock.withLock({ $0 }) == nil, waited < 5_000 {
                usleep(1_000)
                waited += 1
            }
            guard let clock = workerClock.withLock({ $0 }) else {
                // The caller may have taken it (a busy machine); nothing to measure this time.
                batch.abandon()
                continue
            }
            usleep(20_000)
            // The worker waits for the second message while the caller "waits for the server" for 300 ms.
            let before = Self.cpuNanoseconds(clock)
            usleep(300_000)
            let spent = Self.cpuNanoseconds(clock) - before
            #expect(spent < 20_000_000, "the waiting worker took \(spent / 1_000_000) ms of CPU in 300 ms")
            try batch.add(messages[1])
            #expect(try batch.finish() == messages.map { try key.sign($0) })
            return
        }
        Issue.record("the pool was never free for this test's batch")
    }

    @Test(arguments: [0, 1, 2, 8, 33])
    func aSleepingBatchSignsLikeOneAtATimeInOrder(count: Int) throws {
        let batch = ParallelSigningBatch(key: key, capacity: count, waiting: .sleeping)
        defer { batch.abandon() }
        let messages = messages(count)
        for (index, message) in messages.enumerated() {
            try batch.add(message)
            // Now and then the caller "waits for the server": the worker sleeps, then wakes for the next.
            if index % 3 == 1 { usleep(2_000) }
        }
        #expect(try batch.finish() == messages.map { try key.sign($0) })
    }

    @Test func anAbandonedSleepingBatchLetsItsWorkerGo() throws {
        for _ in 0..<100 {
            let batch = ParallelSigningBatch(key: key, capacity: 4, waiting: .sleeping)
            guard batch.usesWorkers else {
                batch.abandon()
                usleep(5_000)
                continue
            }
            try batch.add(messages(1)[0])
            usleep(10_000)
            batch.abandon()
            // The worker, asleep waiting for a second message, wakes and returns: the pool runs the next job.
            let ran = Atomic<Int>(0)
            WorkerPool.shared.forEach(16) { _ in ran.add(1, ordering: .relaxed) }
            #expect(ran.load(ordering: .relaxed) == 16)
            var waited = 0
            while WorkerPool.shared.runningWorkers > 0, waited < 2_000 {
                usleep(1_000)
                waited += 1
            }
            #expect(WorkerPool.shared.runningWorkers == 0)
            return
        }
        Issue.record("the pool was never free for this test's batch")
    }

    /// Adversarial review (adv-pg): a lost wake-up. Batches never full (the worker, having signed what came, goes to sleep
    /// for a message that never comes) are finished at once, before, while and after the worker falls asleep: the end must
    /// wake it every time, its signatures equal to one-at-a-time signing. A worker that slept on would hold the pool for
    /// ever (every later batch signed by its caller alone): each round waits at most 2 s for the pool to be free, then fails.
    @Test func everyEndWakesAWorkerAsleepForAMessageThatNeverComes() throws {
        let messages = messages(3)
        var used = 0
        var attempts = 0
        // 300 rounds on the pool's workers; a round whose batch found the pool held by another test (it then signs
        // alone) is tried again after 5 ms, for at most 30 s in all.
        while used < 300, attempts < 6_000 {
            attempts += 1
            let round = used
            let batch = ParallelSigningBatch(key: key, capacity: 8, waiting: .sleeping)
            let workers = batch.usesWorkers
            let count = 1 + round % 3
            for index in 0..<count {
                try batch.add(messages[index])
                if round % 4 == 1 { usleep(UInt32(50 * (round % 7))) }  // the worker signs, then sleeps, between messages
            }
            if round % 4 == 2 { usleep(UInt32(20 * (round % 11))) }  // ended around the moment it falls asleep
            #expect(try batch.finish() == messages[0..<count].map { try key.sign($0) })
            guard workers else {
                usleep(5_000)
                continue
            }
            used += 1
            var waited = 0
            while WorkerPool.shared.runningWorkers > 0, waited < 2_000 {
                usleep(1_000)
                waited += 1
            }
            #expect(WorkerPool.shared.runningWorkers == 0, "round \(round): a worker slept on after its batch ended")
            if WorkerPool.shared.runningWorkers > 0 { return }
        }
        #expect(used == 300, "the pool was free for \(used) of this test's 300 rounds in 30 s")
    }
}
