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
/// more can come, and the caller's ``finish()`` needs no worker.
/// A batch of one is handed to a worker too (the store commits while it is
/// signed); a pool that is busy leaves the signing to the caller alone.
/// Dropping the batch abandons it.
final class ParallelSigningBatch: SigningBatch {
    private let shared: Messages
    private var poolStarted = false
    private var ended = false

    init(key: Ed25519PrivateKey, capacity: Int) {
        let shared = Messages(key: key, capacity: max(0, capacity))
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
        shared.closed.store(true, ordering: .releasing)
        let count = shared.added.load(ordering: .relaxed)
        while shared.signNext() {}
        while shared.signed.load(ordering: .acquiring) < count { sched_yield() }
        end()
        return try shared.signatures(count)
    }

    func abandon() {
        guard !ended else { return }
        shared.cancelled.store(true, ordering: .releasing)
        shared.closed.store(true, ordering: .releasing)
        end()
    }

    /// Frees the pool at once: the workers hold the messages, not this batch, and return as soon as they see the batch closed.
    private func end() {
        if poolStarted { WorkerPool.shared.release() }
        poolStarted = false
        ended = true
    }
}

/// The messages of one batch and their signatures, shared by the caller and
/// the workers: each slot is written by one thread, published through the counters.
private final class Messages: @unchecked Sendable {
    let key: Ed25519PrivateKey
    let capacity: Int
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

    init(key: Ed25519PrivateKey, capacity: Int) {
        self.key = key
        self.capacity = capacity
        messages = .allocate(capacity: capacity)
        messages.initialize(repeating: [])
        results = .allocate(capacity: capacity)
        results.initialize(repeating: nil)
    }

    deinit {
        _ = messages.deinitialize()
        messages.deallocate()
        _ = results.deinitialize()
        results.deallocate()
    }

    /// Stores the next message and hands it to the workers; only the batch's owner calls this.
    func publish(_ message: [UInt8]) throws(TenderError) {
        let index = added.load(ordering: .relaxed)
        guard index < capacity else { throw .internal("a signing batch got more than its \(capacity) messages") }
        messages[index] = message
        added.store(index + 1, ordering: .releasing)
    }

    /// A worker's share: sign whatever is published, until the batch closes and nothing is left.
    func work() {
        while !cancelled.load(ordering: .acquiring) {
            if signNext() { continue }
            if claimed.load(ordering: .acquiring) >= capacity { return }
            if closed.load(ordering: .acquiring) && claimed.load(ordering: .acquiring) >= added.load(ordering: .acquiring) { return }
            sched_yield()
        }
    }

    /// Claims and signs the next published message; false when none is waiting.
    func signNext() -> Bool {
        let index = claimed.load(ordering: .acquiring)
        guard index < added.load(ordering: .acquiring) else { return false }
        guard claimed.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged else { return true }
        let outcome: Result<[UInt8], TenderError>
        do throws(TenderError) { outcome = .success(try key.sign(messages[index])) } catch { outcome = .failure(error) }
        results[index] = outcome
        signed.add(1, ordering: .releasing)
        return true
    }

    /// The first `count` signatures, once all are stored.
    func signatures(_ count: Int) throws(TenderError) -> [[UInt8]] {
        var signatures: [[UInt8]] = []
        signatures.reserveCapacity(count)
        for index in 0..<count {
            guard let result = results[index] else { throw .internal("a message of the signing batch was not signed") }
            signatures.append(try result.get())
        }
        return signatures
    }
}
