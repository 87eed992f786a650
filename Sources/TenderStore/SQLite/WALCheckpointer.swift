// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// The process's checkpoint workers, shared by every open SQLite store (``StoreCheckpoints``): a queue of stores
/// whose log is due, and at most ``maxThreads`` threads, started when a store is queued and none is free. A worker
/// whose queue is empty waits up to ``idleMilliseconds`` for the next store (so a busy store's committer wakes one
/// instead of starting a thread every few dozen payments), then ends; it ends at once when no store is open. So a
/// host with 100 engines open has no checkpoint thread once none has been due for a second, and at most
/// ``maxThreads`` while many are; a thread holds a store's ``StoreCheckpoints`` only while it is queued or
/// checkpointing, and the store's close (``cancel(_:)``) takes it out of the queue and waits for its checkpoint.
///
/// `fork`: a `pthread_atfork` handler stops (``Database/interrupt()``) and waits for every running checkpoint
/// before the fork, so no worker is inside SQLite when the process is copied; the child starts with an empty queue
/// and no worker (its own engines start their own), the parent carries on with its queue. Thread-safe.
final class WALCheckpointer: @unchecked Sendable {
    /// The process's checkpointer.
    static let shared: WALCheckpointer = {
        let checkpointer = WALCheckpointer(maxThreads: 2)
        registerFork()
        return checkpointer
    }()

    /// The most threads checkpointing at once.
    let maxThreads: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [StoreCheckpoints] = []
    /// Worker threads alive (running a checkpoint, or about to take the next or end).
    private var live = 0
    /// Checkpoints running now.
    private var running: [StoreCheckpoints] = []
    /// Set while a fork is being prepared: workers end instead of taking the next store.
    private var forking = false
    /// Threads ever started, for tests and the bench.
    private var started = 0
    /// Workers waiting for a store (``arrived``).
    private var idle = 0
    /// Stores open that may ask for a checkpoint (``register()``); none: idle workers end.
    private var stores = 0
    private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// How long a worker with nothing to do waits for the next store before it ends.
    static let idleMilliseconds = 1000

    init(maxThreads: Int) {
        self.maxThreads = max(1, maxThreads)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(finished, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(arrived, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// A store that may ask for checkpoints opened; ``cancel(_:)`` counts it closed.
    func register() {
        pthread_mutex_lock(mutex)
        stores += 1
        pthread_mutex_unlock(mutex)
    }

    /// A store counted by ``register()`` went away without ``cancel(_:)`` (its open failed): no longer counted.
    func forget() {
        pthread_mutex_lock(mutex)
        stores = max(0, stores - 1)
        if stores == 0 { pthread_cond_broadcast(arrived) }
        pthread_mutex_unlock(mutex)
    }

    /// Asks a worker to checkpoint `checkpoints`' store (nothing when one is queued or running for it already).
    /// False when no worker can (no thread could be started): the committer then checkpoints itself.
    func request(_ checkpoints: StoreCheckpoints) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if checkpoints.closed || checkpoints.queued || checkpoints.running { return true }
        queue.append(checkpoints)
        checkpoints.queued = true
        if idle > 0 {
            pthread_cond_signal(arrived)
            return true
        }
        // A worker alive and not checkpointing takes it next; else one more starts, up to the most.
        if live - running.count < queue.count, live < maxThreads, !startWorker(), live == 0 {
            queue.removeLast()
            checkpoints.queued = false
            return false
        }
        return true
    }

    /// Takes `checkpoints` out of the queue, stops its running checkpoint and waits for it, then closes its
    /// connection (outside the mutex). After it returns no worker holds or touches them.
    func cancel(_ checkpoints: StoreCheckpoints) {
        pthread_mutex_lock(mutex)
        if !checkpoints.closed, checkpoints.registered {
            stores = max(0, stores - 1)
            // No store left to serve: idle workers end now.
            if stores == 0 { pthread_cond_broadcast(arrived) }
        }
        checkpoints.closed = true
        if checkpoints.queued {
            queue.removeAll { $0 === checkpoints }
            checkpoints.queued = false
        }
        while checkpoints.running {
            checkpoints.connection?.interrupt()
            pthread_cond_wait(finished, mutex)
        }
        let connection = checkpoints.connection
        checkpoints.connection = nil
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(connection) {}
    }

    /// Threads started so far, and alive now.
    var threads: (started: Int, live: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (started, live)
    }

    /// With the mutex held: starts a detached worker with every signal blocked (a host's handlers run on its own
    /// threads); false when the system refuses a thread.
    private func startWorker() -> Bool {
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let me = Unmanaged.passRetained(self).toOpaque()
        let ok = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<WALCheckpointer>.fromOpaque(raw).takeRetainedValue().work()
            return nil
        }, me)
        guard ok == 0 else {
            Unmanaged<WALCheckpointer>.fromOpaque(me).release()
            return false
        }
        pthread_detach(thread)
        live += 1
        started += 1
        return true
    }

    /// A worker: checkpoints queued stores one after another, and ends when the queue is empty (or a fork is prepared).
    private func work() {
        pthread_mutex_lock(mutex)
        while !forking {
            if queue.isEmpty {
                guard stores > 0, waitForStore() else { break }
                continue
            }
            let checkpoints = queue.removeFirst()
            checkpoints.queued = false
            checkpoints.running = true
            running.append(checkpoints)
            pthread_mutex_unlock(mutex)
            checkpoints.run { opened in
                pthread_mutex_lock(mutex)
                checkpoints.connection = opened
                pthread_mutex_unlock(mutex)
            }
            // Closed again before the run ends (a checkpoint comes every ~190 payments): an engine between its
            // checkpoints holds its own descriptors and memory only, not a third connection's.
            pthread_mutex_lock(mutex)
            let used = checkpoints.connection
            checkpoints.connection = nil
            pthread_mutex_unlock(mutex)
            withExtendedLifetime(used) {}
            pthread_mutex_lock(mutex)
            checkpoints.running = false
            running.removeAll { $0 === checkpoints }
            pthread_cond_broadcast(finished)
        }
        live -= 1
        pthread_cond_broadcast(finished)
        pthread_mutex_unlock(mutex)
    }

    /// With the mutex held: waits for a store to be queued, at most ``idleMilliseconds``; false when none came (or no
    /// store is open, or a fork is prepared): the worker ends.
    private func waitForStore() -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = deadline.tv_nsec + Self.idleMilliseconds * 1_000_000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        idle += 1
        defer { idle -= 1 }
        while queue.isEmpty, stores > 0, !forking {
            if pthread_cond_timedwait(arrived, mutex, &deadline) != 0 { return !queue.isEmpty }
        }
        return !queue.isEmpty
    }

    // MARK: fork

    /// Before a fork: no new checkpoint starts, and the running ones are stopped and waited for; the mutex stays
    /// held through the fork.
    private func prepareFork() {
        pthread_mutex_lock(mutex)
        forking = true
        // Idle workers end (they would not be in the child anyway).
        pthread_cond_broadcast(arrived)
        while idle > 0 { pthread_cond_wait(finished, mutex) }
        while !running.isEmpty {
            for checkpoints in running { checkpoints.connection?.interrupt() }
            pthread_cond_wait(finished, mutex)
        }
    }

    /// In the parent after a fork: workers again for what is queued.
    private func parentAfterFork() {
        forking = false
        while live < min(maxThreads, queue.count), startWorker() {}
        pthread_mutex_unlock(mutex)
    }

    /// In the child after a fork: no worker exists here; the parent's queue is the parent's.
    private func childAfterFork() {
        for checkpoints in queue { checkpoints.queued = false }
        queue.removeAll()
        running.removeAll()
        live = 0
        idle = 0
        // The parent's stores are the parent's: only the child's own count here.
        stores = 0
        forking = false
        pthread_mutex_unlock(mutex)
    }

    private static func registerFork() {
        pthread_atfork({ WALCheckpointer.shared.prepareFork() }, { WALCheckpointer.shared.parentAfterFork() }, {
            WALCheckpointer.shared.childAfterFork()
        })
    }
}
