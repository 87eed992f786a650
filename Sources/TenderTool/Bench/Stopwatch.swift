// SPDX-License-Identifier: Apache-2.0
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

    /// The number of online CPUs.
    static var onlineCores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// CPU seconds (user + system) the process has used so far.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
