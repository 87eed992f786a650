// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization

/// A fixed set of threads that share the iterations of one loop with the
/// calling thread, so batches of signatures use every core. Threads start on
/// first use and wait idle between jobs; one job runs at a time.
public final class WorkerPool: @unchecked Sendable {
    /// One worker per online CPU beyond the caller's.
    public static let shared = WorkerPool(workers: max(0, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1))

    private var workers = 0
    /// The process that started the workers; a forked child has none of them.
    private let owner = getpid()
    private let callers = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let started = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var generation = 0
    private var job: ((Int) -> Void)?
    private var count = 0
    private var running = 0
    private let next = Atomic<Int>(0)

    init(workers: Int) {
        pthread_mutex_init(callers, nil)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(started, nil)
        pthread_cond_init(finished, nil)
        var launched = 0
        for _ in 0..<workers {
            var thread = pthread_t()
            let me = Unmanaged.passRetained(self).toOpaque()
            let ok = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<WorkerPool>.fromOpaque(raw).takeRetainedValue().work()
                return nil
            }, me)
            if ok == 0 {
                pthread_detach(thread)
                launched += 1
            } else {
                Unmanaged<WorkerPool>.fromOpaque(me).release()
            }
        }
        self.workers = launched
    }

    /// Calls `body(i)` for every i in 0..<count, on the workers and the calling thread; returns when all are done.
    public func forEach(_ count: Int, _ body: @escaping (Int) -> Void) {
        guard workers > 0, count > 1, getpid() == owner else {
            for index in 0..<count { body(index) }
            return
        }
        pthread_mutex_lock(callers)
        launch(body, count: count)
        drain(body, count)
        join()
    }

    /// Starts `body` on the workers and returns at once; ``join()`` waits for
    /// it to return on each. Until then the pool belongs to this caller.
    /// Returns false, running nothing, when there is no worker, another
    /// caller holds the pool, or a job let go by ``release()`` has not yet
    /// returned on every worker: the caller then does the work itself instead
    /// of waiting for a worker the scheduler has not run yet (many stores
    /// committing at once, each its own batch, on a busy machine).
    public func start(_ body: @escaping () -> Void) -> Bool {
        guard workers > 0, getpid() == owner, pthread_mutex_trylock(callers) == 0 else { return false }
        pthread_mutex_lock(mutex)
        let busy = running > 0
        pthread_mutex_unlock(mutex)
        if busy {
            pthread_mutex_unlock(callers)
            return false
        }
        launch({ _ in body() }, count: workers)
        return true
    }

    /// Waits until the job of ``start(_:)`` (or `forEach`) has returned on every worker, then frees the pool.
    public func join() {
        pthread_mutex_lock(mutex)
        while running > 0 { pthread_cond_wait(finished, mutex) }
        pthread_mutex_unlock(mutex)
        pthread_mutex_unlock(callers)
    }

    /// Frees the pool without waiting for the job of ``start(_:)`` to return
    /// on the workers: for a caller that has what it needed from the job and
    /// has told it to stop. The next job starts once every worker is back.
    public func release() {
        pthread_mutex_unlock(callers)
    }

    /// How many workers are still inside the current job.
    var runningWorkers: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return running
    }

    /// With `callers` held: hands `body` over 0..<count to the workers, once the last job has returned on each.
    private func launch(_ body: @escaping (Int) -> Void, count: Int) {
        pthread_mutex_lock(mutex)
        while running > 0 { pthread_cond_wait(finished, mutex) }
        job = body
        self.count = count
        next.store(0, ordering: .sequentiallyConsistent)
        running = workers
        generation += 1
        pthread_cond_broadcast(started)
        pthread_mutex_unlock(mutex)
    }

    /// `body` is taken as escaping on purpose: built without optimisation, Swift 6.3 kept one
    /// reference for every job a worker handed to a non-escaping parameter here, leaking each job's
    /// closure and captures (LeakSanitizer, issue 18; `WorkerPoolTests` holds it).
    private func drain(_ body: @escaping (Int) -> Void, _ count: Int) {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            body(index)
        }
    }

    private func work() {
        var seen = 0
        pthread_mutex_lock(mutex)
        while true {
            while generation == seen { pthread_cond_wait(started, mutex) }
            seen = generation
            var current = job
            let total = count
            pthread_mutex_unlock(mutex)
            if let body = current { drain(body, total) }
            // Let go of the job before reporting it done: once `join()` returns, the caller's closure
            // and what it captured are freed.
            current = nil
            pthread_mutex_lock(mutex)
            running -= 1
            if running == 0 {
                job = nil
                pthread_cond_broadcast(finished)
            }
        }
    }
}
