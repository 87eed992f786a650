#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time (CLOCK_MONOTONIC) for the benchmark.
enum Stopwatch {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Runs `body` repeatedly for about `seconds` (at least `minimum` times); returns operations per second.
    static func rate(seconds: Double, minimum: Int = 10, _ body: () throws -> Void) rethrows -> Double {
        let start = now()
        var count = 0
        while count < minimum || now() - start < seconds {
            try body()
            count += 1
        }
        return Double(count) / (now() - start)
    }
}
