internal import Glibc

/// The system's real-time clock (clock_gettime CLOCK_REALTIME).
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
