// SPDX-License-Identifier: Apache-2.0
import Synchronization
import Testing
@testable import TenderCrypto

/// The pool lets go of every job once it has run: a closure and what it
/// captured are freed when `forEach` or `join` returns (issue 18: one job
/// leaked per parallel call).
@Suite struct WorkerPoolTests {
    /// Counts the indexes a job was called with.
    final class Witness: Sendable {
        let calls = Atomic<Int>(0)
        func touch() { calls.wrappingAdd(1, ordering: .relaxed) }
    }

    @Test func forEachRunsEveryIndexOnceAndFreesItsJob() {
        let pool = WorkerPool(workers: 2)
        for _ in 0..<20 {
            weak var released: Witness?
            do {
                let witness = Witness()
                released = witness
                pool.forEach(64) { [witness] _ in witness.touch() }
                #expect(witness.calls.load(ordering: .relaxed) == 64)
            }
            #expect(released == nil)
        }
    }

    @Test func aStartedJobIsFreedByJoin() {
        let pool = WorkerPool(workers: 2)
        for _ in 0..<20 {
            weak var released: Witness?
            do {
                let witness = Witness()
                released = witness
                let started = pool.start { [witness] in witness.touch() }
                #expect(started)
                pool.join()
                #expect(witness.calls.load(ordering: .relaxed) == 2)
            }
            #expect(released == nil)
        }
    }

    @Test func aBusyPoolRefusesASecondCaller() {
        let pool = WorkerPool(workers: 1)
        let first = pool.start {}
        let second = pool.start {}
        #expect(first && !second)
        pool.join()
        let third = pool.start {}
        #expect(third)
        pool.join()
    }
}
