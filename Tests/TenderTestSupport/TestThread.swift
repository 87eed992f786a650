// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A POSIX thread running `body`, joined by ``join()``: the suites that race sessions or signing
/// batches on real threads (not Swift concurrency's pool, which may run them one after another).
/// When the thread cannot be created, `body` runs at once on the caller's thread.
public final class TestThread {
    private var thread = pthread_t()
    private let started: Bool

    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        started = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, box) == 0
        if !started {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }

    /// Waits for the thread to end (at once when it never started).
    public func join() { if started { pthread_join(thread, nil) } }

    /// Runs `body(index)` for each index below `count`, each on a thread of its own, all at once, and waits for them.
    public static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = (0..<count).map { index in TestThread { body(index) } }
        for thread in threads { thread.join() }
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
