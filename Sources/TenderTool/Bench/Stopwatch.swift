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

    /// What one side of ``interleaved(seconds:slices:_:_:)`` did over its own turns: operations, wall seconds and
    /// the process's CPU seconds (user + system, every thread's: a checkpoint worker's too) in those turns.
    struct Turns {
        var count = 0
        var seconds = 0.0
        var cpu = 0.0

        /// Operations per second over this side's own time.
        var rate: Double { seconds > 0 ? Double(count) / seconds : 0 }
        /// The process's CPU microseconds per operation.
        var cpuMicroseconds: Double { count > 0 ? cpu / Double(count) * 1e6 : 0 }
        /// Wall microseconds per operation not spent on a CPU by this process (waiting for the disk, or preempted).
        var waitMicroseconds: Double { count > 0 ? max(0, seconds - cpu) / Double(count) * 1e6 : 0 }
    }

    /// Runs `first` and `second` in turns, `slices` times each for about
    /// `seconds / slices`, the order swapped every turn, so that both see the
    /// same machine (a shared disk's flush time drifts by several times within
    /// seconds); returns what each did over its own turns (its rate is over its own time).
    static func interleaved(
        seconds: Double, slices: Int, _ first: () throws -> Void, _ second: () throws -> Void
    ) rethrows -> (first: Turns, second: Turns) {
        var sides = (Turns(), Turns())
        let slice = seconds / Double(slices)
        for turn in 0..<(2 * slices) {
            let runFirst = (turn % 4 == 0) || (turn % 4 == 3)
            let cpuStart = processCPU()
            let start = now()
            var count = 0
            while count < 1 || now() - start < slice {
                try runFirst ? first() : second()
                count += 1
            }
            let elapsed = now() - start
            let cpu = processCPU() - cpuStart
            if runFirst {
                sides.0.count += count
                sides.0.seconds += elapsed
                sides.0.cpu += cpu
            } else {
                sides.1.count += count
                sides.1.seconds += elapsed
                sides.1.cpu += cpu
            }
        }
        return sides
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
