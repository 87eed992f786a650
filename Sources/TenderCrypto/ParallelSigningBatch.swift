// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization
import TenderCore

/// A ``SigningBatch`` whose messages the pool's workers sign as soon as they
/// are added, while the caller prepares the next; the caller signs what is
/// left at ``finish()``. A worker waiting for the next message spins (yielding
/// the CPU), so it is already running when the message comes: waking a
/// sleeping thread on an idle virtual CPU costs tens of microseconds. It
/// stops spinning once every message the batch can hold is taken: nothing
/// more can come, and the caller's ``finish()`` needs no worker. A batch made
/// ``SigningWait/sleeping`` waits asleep instead (for a caller that waits for a
/// database server between its messages, on cores the server needs).
/// A batch of one is handed to a worker too (the store commits while it is
/// signed); a pool that is busy leaves the signing to the caller alone.
/// At ``finish()`` the caller waits for a worker's signature at most
/// ``stealAfterNanoseconds``, then signs that message itself: on a busy
/// machine a worker preempted in the middle of a signature would otherwise
/// hold the caller (and its whole batch) for a scheduler's time slice.
/// Ed25519 is deterministic, so both signatures are the same; the first stored is kept.
/// Dropping the batch abandons it.
final class ParallelSigningBatch: SigningBatch {
    private let shared: Messages
    private var poolStarted = false
    private var ended = false

    /// How long ``finish()`` waits for a message a worker is signing before signing it itself: about two
    /// signatures on these cores, so a worker that is running finishes first.
    static let stealAfterNanoseconds = 100_000

    /// How this batch's worker and caller wait.
    var waiting: SigningWait { shared.waiting }

    convenience init(key: Ed25519PrivateKey, capacity: Int, waiting: SigningWait = .spinning) {
        self.init(capacity: capacity, waiting: waiting) { (message) throws(TenderError) in try key.sign(message) }
    }

    /// A batch signing with `sign` (a test's, to hold a worker inside a signature).
    init(capacity: Int, waiting: SigningWait = .spinning, sign: @escaping @Sendable ([UInt8]) throws(TenderError) -> [UInt8]) {
        let shared = Messages(sign: sign, capacity: max(0, capacity), waiting: waiting)
        self.shared = shared
        // The workers hold the messages, not this batch, so dropping the batch still stops them.
        if shared.capacity >= 1 { poolStarted = WorkerPool.shared.start { shared.work() } }
    }

    deinit { abandon() }

    /// Whether the pool's workers took part (false when the pool was busy and the caller signs alone).
    var usesWorkers: Bool { poolStarted }

    func add(_ message: [UInt8]) throws(TenderError) {
        guard !ended else { throw .internal("a signing batch got a message after it ended") }
        try shared.publish(message)
    }

    func finish() throws(TenderError) -> [[UInt8]] {
        guard !ended else { throw .internal("a signing batch finished twice") }
        shared.close()
        let count = shared.added.load(ordering: .relaxed)
        while shared.signNext() {}
        if shared.signed.load(ordering: .acquiring) < count {
            // A worker holds a message still: wait for it a moment, then sign what it has not stored.
            let deadline = Self.monotonicNanoseconds() + Self.stealAfterNanoseconds
            if shared.waiting == .sleeping {
                shared.awaitSigned(count, deadline: deadline)
            } else {
                while shared.signed.load(ordering: .acquiring) < count, Self.monotonicNanoseconds() < deadline { sched_yield() }
            }
            if shared.signed.load(ordering: .acquiring) < count { shared.signMissing(count) }
        }
        end()
        return try shared.signatures(count)
    }

    func abandon() {
        guard !ended else { return }
        shared.cancelled.store(true, ordering: .releasing)
        shared.close()
        end()
    }

    private static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    /// Frees the pool at once: the workers hold the messages, not this batch, and return as soon as they see the batch closed.
    private func end() {
        if poolStarted { WorkerPool.shared.release() }
        poolStarted = false
        ended = true
    }
}

/// The messages of one batch and their signatures, shared by the caller and
/// the workers: a message is written by the caller before it is published
/// through `added`; a signature is stored under `stored`, once per slot (the
/// first of a worker and a caller that took it over), and counted in `signed`.
private final class Messages: @unchecked Sendable {
    let sign: @Sendable ([UInt8]) throws(TenderError) -> [UInt8]
    let capacity: Int
    private let stored = Mutex(())
    private let messages: UnsafeMutableBufferPointer<[UInt8]>
    private let results: UnsafeMutableBufferPointer<Result<[UInt8], TenderError>?>
    /// Messages published to the workers (released after each is stored).
    let added = Atomic<Int>(0)
    /// The next message to sign, taken by whoever claims it first.
    private let claimed = Atomic<Int>(0)
    /// Messages whose signature is stored (released after each).
    let signed = Atomic<Int>(0)
    /// No more messages come: workers sign what is left, then return.
    let closed = Atomic<Bool>(false)
    /// The batch was abandoned: workers return at once.
    let cancelled = Atomic<Bool>(false)

    /// How the worker and the caller wait for each other (``SigningWait``).
    let waiting: SigningWait
    /// For a ``SigningWait/sleeping`` batch: the mutex and condition the sleepers wait on (made only
    /// for one), and how many sleep (under the mutex), so that a message, a signature or the end wakes them and a
    /// publisher with nobody asleep makes no call.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>?
    private let wake: UnsafeMutablePointer<pthread_cond_t>?
    private var sleepers = 0

    init(sign: @escaping @Sendable ([UInt8]) throws(TenderError) -> [UInt8], capacity: Int, waiting: SigningWait) {
        self.sign = sign
        self.capacity = capacity
        self.waiting = waiting
        messages = .allocate(capacity: capacity)
        messages.initialize(repeating: [])
        results = .allocate(capacity: capacity)
        results.initialize(repeating: nil)
        if waiting == .sleeping {
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(wake, &attributes)
            pthread_condattr_destroy(&attributes)
            self.mutex = mutex
            self.wake = wake
        } else {
            mutex = nil
            wake = nil
        }
    }

    deinit {
        _ = messages.deinitialize()
        messages.deallocate()
        _ = results.deinitialize()
        results.deallocate()
        if let mutex, let wake {
            pthread_cond_destroy(wake)
            pthread_mutex_destroy(mutex)
            wake.deallocate()
            mutex.deallocate()
        }
    }

    /// Stores the next message and hands it to the workers; only the batch's owner calls this.
    func publish(_ message: [UInt8]) throws(TenderError) {
        let index = added.load(ordering: .relaxed)
        guard index < capacity else { throw .internal("a signing batch got more than its \(capacity) messages") }
        messages[index] = message
        added.store(index + 1, ordering: .releasing)
        wakeSleepers()
    }

    /// No more messages come (the caller finishes, or abandons after setting `cancelled`): sleepers wake to see it.
    func close() {
        closed.store(true, ordering: .releasing)
        wakeSleepers()
    }

    /// A worker's share: sign whatever is published, until the batch closes and nothing is left.
    func work() {
        while !cancelled.load(ordering: .acquiring) {
            if signNext() { continue }
            if claimed.load(ordering: .acquiring) >= capacity { return }
            if closed.load(ordering: .acquiring) && claimed.load(ordering: .acquiring) >= added.load(ordering: .acquiring) { return }
            if let mutex, let wake {
                // Asleep until a message is published or the batch ends; checked under the mutex, which every waker takes
                // after its change, so no wake-up is lost.
                pthread_mutex_lock(mutex)
                sleepers += 1
                while !cancelled.load(ordering: .acquiring), !closed.load(ordering: .acquiring),
                    claimed.load(ordering: .acquiring) >= added.load(ordering: .acquiring)
                {
                    pthread_cond_wait(wake, mutex)
                }
                sleepers -= 1
                pthread_mutex_unlock(mutex)
            } else {
                sched_yield()
            }
        }
    }

    /// For a sleeping batch, the caller at finish: asleep until the first `count` signatures are stored or the monotonic
    /// clock reaches `deadline` (nanoseconds).
    func awaitSigned(_ count: Int, deadline: Int) {
        guard let mutex, let wake else { return }
        var until = timespec(tv_sec: deadline / 1_000_000_000, tv_nsec: deadline % 1_000_000_000)
        pthread_mutex_lock(mutex)
        sleepers += 1
        while signed.load(ordering: .acquiring) < count {
            if pthread_cond_timedwait(wake, mutex, &until) == ETIMEDOUT { break }
        }
        sleepers -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Wakes whoever sleeps on a sleeping batch (a worker waiting for a message, the caller for a signature).
    private func wakeSleepers() {
        guard let mutex, let wake else { return }
        pthread_mutex_lock(mutex)
        if sleepers > 0 { pthread_cond_broadcast(wake) }
        pthread_mutex_unlock(mutex)
    }

    /// Claims and signs the next published message; false when none is waiting.
    func signNext() -> Bool {
        let index = claimed.load(ordering: .acquiring)
        guard index < added.load(ordering: .acquiring) else { return false }
        guard claimed.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged else { return true }
        store(signing(index), at: index)
        return true
    }

    /// Signs every one of the first `count` messages with no signature stored yet (the caller, at finish,
    /// taking over from a worker that holds one still).
    func signMissing(_ count: Int) {
        for index in 0..<count where stored.withLock({ _ in results[index] == nil }) { store(signing(index), at: index) }
    }

    private func signing(_ index: Int) -> Result<[UInt8], TenderError> {
        do throws(TenderError) { return .success(try sign(messages[index])) } catch { return .failure(error) }
    }

    /// Stores the signature of message `index` unless one is stored already, and counts it.
    private func store(_ outcome: Result<[UInt8], TenderError>, at index: Int) {
        let first = stored.withLock { _ in
            guard results[index] == nil else { return false }
            results[index] = outcome
            return true
        }
        if first {
            signed.add(1, ordering: .releasing)
            wakeSleepers()
        }
    }

    /// The first `count` signatures, once all are stored.
    func signatures(_ count: Int) throws(TenderError) -> [[UInt8]] {
        let outcomes = stored.withLock { _ in (0..<count).map { results[$0] } }
        var signatures: [[UInt8]] = []
        signatures.reserveCapacity(count)
        for outcome in outcomes {
            guard let result = outcome else { throw .internal("a message of the signing batch was not signed") }
            signatures.append(try result.get())
        }
        return signatures
    }
}
