// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Durations of single operations, gathered from one or many threads, and their percentiles.
/// Each thread records into its own `Latencies` and the bench merges them after the threads join.
struct Latencies {
    private(set) var seconds: [Double] = []

    /// Runs `body`, records how long it took and returns its result.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = Stopwatch.now()
        defer { seconds.append(Stopwatch.now() - start) }
        return try body()
    }

    mutating func add(_ duration: Double) { seconds.append(duration) }

    mutating func merge(_ other: Latencies) { seconds += other.seconds }

    /// The nearest-rank percentile (`fraction` in 0...1) in milliseconds; 0 with no sample.
    func percentileMilliseconds(_ fraction: Double) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let sorted = seconds.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1] * 1000
    }
}
