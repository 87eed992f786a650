// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The ``TenderClock`` on the system's clocks: CLOCK_REALTIME, CLOCK_MONOTONIC
/// and the process's time zone (TZ). Thread-safe.
public struct SystemClock: TenderClock {
    public init() {}

    public func nowMilliseconds() -> Int64 { WallClock.nowMilliseconds() }

    public func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    public func today() -> LocalDate { WallClock.today() }
}
