// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Runs a body on several threads at once and times them together (the bench's; not thread-safe to share beyond that).
public enum BenchThreads {
    /// Seconds from the start of `threads` threads each running `body(thread)` to the end of the last; the first error
    /// any thread threw is thrown.
    public static func timed(threads: Int, _ body: @escaping @Sendable (Int) throws(TenderError) -> Void) throws(TenderError) -> Double {
        let failure = Failure()
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var started: [pthread_t] = []
        for index in 0..<threads {
            let work = Work { do throws(TenderError) { try body(index) } catch { failure.keep(error) } }
            var thread = pthread_t()
            guard pthread_create(&thread, nil, { argument in
                Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(work).toOpaque()) == 0 else { failure.keep(.internal("cannot start a bench thread")); break }
            started.append(thread)
        }
        for thread in started { pthread_join(thread, nil) }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        if let error = failure.first { throw error }
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    private final class Work: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private final class Failure: @unchecked Sendable {
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private(set) var first: TenderError?
        init() { pthread_mutex_init(lock, nil) }
        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        func keep(_ error: TenderError) {
            pthread_mutex_lock(lock)
            if first == nil { first = error }
            pthread_mutex_unlock(lock)
        }
    }
}
