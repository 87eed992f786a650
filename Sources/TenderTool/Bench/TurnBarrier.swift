// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// A POSIX barrier for `count` threads: each ``wait()`` returns once all `count` have called it, and the
/// barrier is ready again for the next round. The bench's turns use it so that the same threads run both
/// sides of a comparison, one turn after the other. Thread-safe; `count` threads must take part in every round.
final class TurnBarrier: @unchecked Sendable {
    private let barrier: UnsafeMutablePointer<pthread_barrier_t>

    init(count: Int) {
        barrier = .allocate(capacity: 1)
        pthread_barrier_init(barrier, nil, UInt32(max(1, count)))
    }

    deinit {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }

    /// Waits until every thread of the round has arrived.
    func wait() { _ = pthread_barrier_wait(barrier) }
}
