// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderStore
import TenderTestSupport

/// Issue 34 (the eight submitters' hand-offs): each caller of the group commit is woken once, by its batch's leader
/// with its outcome or by the last leader with the lead, and a gathering leader once, when its batch is complete. On
/// 16df147 the leader was signalled at every arrival and every batch's end woke every caller waiting (a broadcast),
/// members of later batches too: with the same counts added to that queue, `callersAndGatheringLeadersWakeOncePerBatch`
/// failed (491 gathering wake-ups for 202 batches; 8 callers woken with neither outcome nor lead). Shared state here
/// is in ``PthreadLocked`` (a class): ThreadSanitizer flagged a captured `Mutex` as an access race.
@Suite struct GroupCommitQueueTests {
    /// Eight threads, each submitting one request at a time: every request gets its own outcome from exactly one batch.
    private static func run(
        _ queue: GroupCommitQueue<Int, Int>, threads: Int, each: Int, processMicroseconds: UInt32
    ) -> (processed: [Int], outcomes: [Int: Int], sizes: [Int]) {
        let processed = PthreadLocked<[Int]>([])
        let outcomes = PthreadLocked<[Int: Int]>([:])
        let sizes = PthreadLocked<[Int]>([])
        TestThread.run(threads) { thread in
            for index in 0..<each {
                let request = thread * 1_000_000 + index
                let outcome = queue.submit(request) { batch in
                    processed.withLock { $0 += batch }
                    sizes.withLock { $0.append(batch.count) }
                    if processMicroseconds > 0 { usleep(processMicroseconds) }
                    return batch.map { -$0 }
                }
                outcomes.withLock { $0[request] = outcome }
            }
        }
        return (processed.withLock { $0 }, outcomes.withLock { $0 }, sizes.withLock { $0 })
    }

    @Test func everyRequestIsProcessedOnceAndAnsweredWithItsOwnOutcome() {
        let queue = GroupCommitQueue<Int, Int>()
        let (processed, outcomes, sizes) = Self.run(queue, threads: 8, each: 300, processMicroseconds: 50)
        #expect(processed.count == 8 * 300)
        #expect(Set(processed).count == processed.count)
        #expect(outcomes.count == 8 * 300)
        #expect(outcomes.allSatisfy { $0.value == -$0.key })
        // Callers met in batches (a batch of eight is the most eight callers can make).
        #expect(sizes.contains { $0 > 1 })
        #expect(sizes.allSatisfy { $0 >= 1 && $0 <= 8 })
        #expect(queue.counts.batches == sizes.count)
    }

    /// A caller wakes once: never for a batch it is not in, and a gathering leader not at every arrival.
    @Test func callersAndGatheringLeadersWakeOncePerBatch() {
        let queue = GroupCommitQueue<Int, Int>()
        let (_, _, sizes) = Self.run(queue, threads: 8, each: 200, processMicroseconds: 200)
        let counts = queue.counts
        #expect(counts.idleWakeups == 0)
        // At most one wake-up per batch (its completing arrival, or the deadline), and a few spurious ones from the
        // condition variable; before, up to one per arrival: about seven a batch of eight.
        #expect(counts.gatherWakeups <= counts.batches + counts.batches / 10 + 2, "\(counts), batches of \(Set(sizes).sorted())")
    }

    /// A request its batch left without an outcome (a processor returning fewer) is processed again, by a later batch,
    /// and its caller still gets one outcome.
    @Test func aRequestLeftWithoutAnOutcomeIsProcessedAgain() {
        let queue = GroupCommitQueue<Int, Int>()
        let shortOnce = Atomic<Bool>(true)
        let answered = PthreadLocked<[Int: Int]>([:])
        let processed = PthreadLocked<[Int]>([])
        TestThread.run(4) { thread in
            for index in 0..<50 {
                let request = thread * 1000 + index
                let outcome = queue.submit(request) { batch in
                    processed.withLock { $0 += batch }
                    usleep(100)
                    // The first batch of several answers all but its last request.
                    if batch.count > 1, shortOnce.compareExchange(expected: true, desired: false, ordering: .relaxed).exchanged {
                        return batch.dropLast().map { -$0 }
                    }
                    return batch.map { -$0 }
                }
                answered.withLock { $0[request] = outcome }
            }
        }
        #expect(answered.withLock { $0.count } == 200)
        #expect(answered.withLock { $0.allSatisfy { $0.value == -$0.key } })
        // Exactly one request was processed twice (the one left without an outcome).
        let shortened = !shortOnce.load(ordering: .relaxed)
        #expect(shortened)
        #expect(processed.withLock { $0.count } == 201)
    }
}
