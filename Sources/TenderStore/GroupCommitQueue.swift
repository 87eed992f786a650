internal import Glibc

/// Group commit: callers from many threads hand in requests; one of them at
/// a time (the leader) takes every request waiting and processes the batch
/// in one go (one transaction, one flush), then wakes the others with their
/// outcomes. A lone caller leads a batch of one.
final class GroupCommitQueue<Request, Outcome>: @unchecked Sendable {
    private final class Slot {
        let request: Request
        var outcome: Outcome?
        init(_ request: Request) { self.request = request }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var waiting: [Slot] = []
    private var leading = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(done, nil)
    }

    deinit {
        pthread_cond_destroy(done)
        pthread_mutex_destroy(mutex)
        done.deallocate()
        mutex.deallocate()
    }

    /// Submits `request` and returns its outcome once its batch is processed.
    /// `process` gets a batch and returns one outcome per request, in order.
    func submit(_ request: Request, process: ([Request]) -> [Outcome]) -> Outcome {
        let slot = Slot(request)
        pthread_mutex_lock(mutex)
        waiting.append(slot)
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
            let batch = waiting
            waiting.removeAll(keepingCapacity: true)
            pthread_mutex_unlock(mutex)
            let outcomes = process(batch.map(\.request))
            pthread_mutex_lock(mutex)
            for (index, member) in batch.enumerated() where index < outcomes.count { member.outcome = outcomes[index] }
            leading = false
            pthread_cond_broadcast(done)
        }
    }
}
