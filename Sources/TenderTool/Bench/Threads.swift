// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// Runs `body(index)` on `count` POSIX threads at once and waits for all of them.
enum Threads {
    private final class Work {
        let body: (Int) -> Void
        let index: Int
        let gate: StartGate
        init(_ body: @escaping (Int) -> Void, _ index: Int, _ gate: StartGate) {
            self.body = body
            self.index = index
            self.gate = gate
        }
    }

    /// Where every thread waits until all of them exist: then all run, or, when one could not be made, none does.
    /// The mutex and condition are allocated (a stable address), as the project's other pthread primitives are.
    private final class StartGate: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var decided = false
        private var go = false

        init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        /// Lets the waiting threads run their work (`go`), or return without it.
        func open(_ go: Bool) {
            pthread_mutex_lock(mutex)
            self.go = go
            decided = true
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        /// Whether the thread runs its work, once ``open(_:)`` decided.
        func pass() -> Bool {
            pthread_mutex_lock(mutex)
            while !decided { pthread_cond_wait(condition, mutex) }
            let go = self.go
            pthread_mutex_unlock(mutex)
            return go
        }
    }

    /// Runs `body` on `count` threads, all started before any runs it (a body may wait at a barrier for the others).
    /// Throws ``TenderError/internal(_:)`` when a thread cannot be created: then no body runs.
    static func run(_ count: Int, _ body: @escaping (Int) -> Void) throws {
        let gate = StartGate()
        var threads: [pthread_t] = []
        var failed: Int32 = 0
        for index in 0..<count {
            var thread = pthread_t()
            let work = Unmanaged.passRetained(Work(body, index, gate)).toOpaque()
            let created = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
                if work.gate.pass() { work.body(work.index) }
                return nil
            }, work)
            guard created == 0 else {
                Unmanaged<Work>.fromOpaque(work).release()
                failed = created
                break
            }
            threads.append(thread)
        }
        gate.open(failed == 0)
        for thread in threads { pthread_join(thread, nil) }
        if failed != 0 {
            throw TenderError.internal("could not start \(count) bench threads (pthread_create: \(String(cString: strerror(failed))))")
        }
    }
}
