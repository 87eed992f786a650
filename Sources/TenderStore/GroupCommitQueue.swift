// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization

/// Group commit: callers from many threads hand in requests; one of them at
/// a time (the leader) takes every request waiting and processes the batch
/// in one go (one transaction, one flush), then wakes the others with their
/// outcomes. A lone caller leads a batch of one at once; when the last batch
/// had several callers, the leader first waits a moment (at most
/// ``gatherMicroseconds``) for as many to arrive again, so batches stay large.
final class GroupCommitQueue<Request, Outcome>: @unchecked Sendable {
    private final class Slot {
        let request: Request
        var outcome: Outcome?
        init(_ request: Request) { self.request = request }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var lastBatchSize = 1
    /// The longest a leader waits for the callers of the last batch to come back.
    static var gatherMicroseconds: Int { 200 }
    private var waiting: [Slot] = []
    private var leading = false
    /// Callers inside ``submit(_:process:)`` now, and the last batch's size: read without the mutex by ``isQuiet``.
    private let inside = Atomic<Int>(0)
    private let lastSize = Atomic<Int>(1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(done, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(arrived, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(done)
        pthread_cond_destroy(arrived)
        pthread_mutex_destroy(mutex)
        done.deallocate()
        arrived.deallocate()
        mutex.deallocate()
    }

    /// Submits `request` and returns its outcome once its batch is processed.
    /// `process` gets a batch and returns one outcome per request, in order.
    func submit(_ request: Request, process: ([Request]) -> [Outcome]) -> Outcome {
        let slot = Slot(request)
        inside.add(1, ordering: .relaxed)
        defer { inside.subtract(1, ordering: .relaxed) }
        pthread_mutex_lock(mutex)
        waiting.append(slot)
        pthread_cond_signal(arrived)
        while true {
            if let outcome = slot.outcome {
                pthread_mutex_unlock(mutex)
                return outcome
            }
            if leading {
                pthread_cond_wait(done, mutex)
                continue
            }
            leading = true
            gather()
            let batch = waiting
            waiting.removeAll(keepingCapacity: true)
            pthread_mutex_unlock(mutex)
            let outcomes = process(batch.map(\.request))
            pthread_mutex_lock(mutex)
            for (index, member) in batch.enumerated() where index < outcomes.count { member.outcome = outcomes[index] }
            lastBatchSize = batch.count
            lastSize.store(batch.count, ordering: .relaxed)
            leading = false
            pthread_cond_broadcast(done)
        }
    }

    /// Whether a submission made now would most likely lead a batch of one: no caller is inside ``submit(_:process:)``
    /// (none waits, no batch is being processed), and the last batch had one caller. A hint (it may change at once), for
    /// work worth doing only then; read without the mutex, so asking costs the submitters no contention.
    var isQuiet: Bool {
        inside.load(ordering: .relaxed) == 0 && lastSize.load(ordering: .relaxed) == 1
    }

    /// With the mutex held: waits until as many callers as last time are waiting, or the gather time passes.
    private func gather() {
        guard lastBatchSize > 1, waiting.count < lastBatchSize else { return }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = deadline.tv_nsec + Self.gatherMicroseconds * 1000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while waiting.count < lastBatchSize {
            if pthread_cond_timedwait(arrived, mutex, &deadline) != 0 { return }
        }
    }
}
