// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization

/// Group commit: callers from many threads hand in requests; one of them at
/// a time (the leader) takes every request waiting and processes the batch
/// in one go (one transaction, one flush), then wakes the others with their
/// outcomes. A lone caller leads a batch of one at once; when the last batch
/// had several callers, the leader first waits a moment (at most
/// ``gatherMicroseconds``) for as many to arrive again, so batches stay large.
///
/// Each caller sleeps on a semaphore of its own and is woken once: by the
/// leader of its batch, with its outcome, or by the last leader, to lead the
/// next batch. A gathering leader is woken once, when its batch is complete
/// (not at every arrival). So a caller costs one wake-up, and no caller
/// wakes for a batch it is not in (no broadcast, no herd on the mutex).
final class GroupCommitQueue<Request, Outcome>: @unchecked Sendable {
    private final class Slot {
        let request: Request
        /// Written by the leader of its batch before it posts ``wake``.
        var outcome: Outcome?
        /// Set (before ``wake`` is posted) when the last leader hands this caller the lead.
        var leads = false
        let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        init(_ request: Request) {
            self.request = request
            sem_init(wake, 0, 0)
        }
        deinit {
            sem_destroy(wake)
            wake.deallocate()
        }

        /// Asleep until the leader posts this slot's semaphore.
        func sleep() {
            while sem_wait(wake) != 0 {}
        }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var lastBatchSize = 1
    /// The longest a leader waits for the callers of the last batch to come back.
    static var gatherMicroseconds: Int { 200 }
    private var waiting: [Slot] = []
    private var leading = false
    /// How many callers a gathering leader waits for (0: no leader is gathering); an arrival that completes it wakes it.
    private var gatherTarget = 0
    /// Callers inside ``submit(_:process:)`` now, and the last batch's size: read without the mutex by ``isQuiet``.
    private let inside = Atomic<Int>(0)
    private let lastSize = Atomic<Int>(1)
    /// Under the mutex, for tests: batches processed, times a gathering leader woke, times a caller woke with neither
    /// an outcome nor the lead.
    private var counted = (batches: 0, gatherWakeups: 0, idleWakeups: 0)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(arrived, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(arrived)
        pthread_mutex_destroy(mutex)
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
        if gatherTarget > 0, waiting.count >= gatherTarget { pthread_cond_signal(arrived) }
        var leads = !leading
        if leads { leading = true }
        while true {
            if !leads {
                pthread_mutex_unlock(mutex)
                slot.sleep()
                // The leader wrote the outcome or the lead before posting: the semaphore orders it before this read.
                if let outcome = slot.outcome { return outcome }
                pthread_mutex_lock(mutex)
                guard slot.leads else {
                    counted.idleWakeups += 1
                    continue
                }
                slot.leads = false
                leads = true
            }
            // This caller leads: `leading` is set for it (by itself, or by the leader that handed it the lead).
            gather()
            let batch = waiting
            waiting.removeAll(keepingCapacity: true)
            pthread_mutex_unlock(mutex)
            let outcomes = process(batch.map(\.request))
            pthread_mutex_lock(mutex)
            var done: [Slot] = []
            var again: [Slot] = []
            for (index, member) in batch.enumerated() {
                if index < outcomes.count {
                    member.outcome = outcomes[index]
                    done.append(member)
                } else {
                    again.append(member)
                }
            }
            // A request left without an outcome waits for the next batch, first.
            waiting.insert(contentsOf: again, at: 0)
            lastBatchSize = batch.count
            lastSize.store(batch.count, ordering: .relaxed)
            counted.batches += 1
            // The lead goes to the first caller waiting (it stays with this one when that is itself), else nobody leads.
            let next = waiting.first
            if let next, next !== slot { next.leads = true }
            leading = next != nil
            let ownOutcome = slot.outcome
            pthread_mutex_unlock(mutex)
            // Posted without the mutex: each woken caller reads its slot and returns without taking it. The next leader
            // first, so the next batch starts while this one's callers are still being woken.
            if let next, next !== slot { sem_post(next.wake) }
            for member in done where member !== slot { sem_post(member.wake) }
            if let ownOutcome { return ownOutcome }
            // Its own request is to be processed again, by the batch it leads now.
            pthread_mutex_lock(mutex)
            leads = true
        }
    }

    /// Whether a submission made now would most likely lead a batch of one: no caller is inside ``submit(_:process:)``
    /// (none waits, no batch is being processed), and the last batch had one caller. A hint (it may change at once), for
    /// work worth doing only then; read without the mutex, so asking costs the submitters no contention.
    var isQuiet: Bool {
        inside.load(ordering: .relaxed) == 0 && lastSize.load(ordering: .relaxed) == 1
    }

    /// Batches processed, returns of a gathering leader's wait (its deadline, its batch complete, or spurious), and times a caller woke with
    /// neither its outcome nor the lead (none, by design: each caller is posted once); for tests.
    var counts: (batches: Int, gatherWakeups: Int, idleWakeups: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return counted
    }

    /// With the mutex held: waits until as many callers as last time are waiting, or the gather time passes. The
    /// arrival that completes the batch wakes the leader; earlier ones do not.
    private func gather() {
        guard lastBatchSize > 1, waiting.count < lastBatchSize else { return }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = deadline.tv_nsec + Self.gatherMicroseconds * 1000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        gatherTarget = lastBatchSize
        defer { gatherTarget = 0 }
        while waiting.count < lastBatchSize {
            let code = pthread_cond_timedwait(arrived, mutex, &deadline)
            counted.gatherWakeups += 1
            if code != 0 { return }
        }
    }
}
