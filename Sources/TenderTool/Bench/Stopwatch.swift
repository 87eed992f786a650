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

    /// Runs `first` and `second` in turns, `slices` times each for about
    /// `seconds / slices`, the order swapped every turn, so that both see the
    /// same machine (a shared disk's flush time drifts by several times within
    /// seconds); returns each one's operations per second over its own time.
    static func interleaved(
        seconds: Double, slices: Int, _ first: () throws -> Void, _ second: () throws -> Void
    ) rethrows -> (first: Double, second: Double) {
        var counts = (0, 0)
        var times = (0.0, 0.0)
        let slice = seconds / Double(slices)
        for turn in 0..<(2 * slices) {
            let runFirst = (turn % 4 == 0) || (turn % 4 == 3)
            let start = now()
            var count = 0
            while count < 1 || now() - start < slice {
                try runFirst ? first() : second()
                count += 1
            }
            if runFirst {
                counts.0 += count
                times.0 += now() - start
            } else {
                counts.1 += count
                times.1 += now() - start
            }
        }
        return (Double(counts.0) / times.0, Double(counts.1) / times.1)
    }

    /// The number of online CPUs.
    static var onlineCores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// CPU seconds (user + system) the process has used so far.
    static func processCPU() -> Double { processUsage().cpu }

    /// The process's CPU seconds (user + system, every thread) and its context switches so far, voluntary (a wait:
    /// a lock, a condition, the disk) and involuntary (preempted): one `getrusage` for all three.
    static func processUsage() -> (cpu: Double, voluntary: Int, involuntary: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return (user + system, Int(usage.ru_nvcsw), Int(usage.ru_nivcsw))
    }
}
