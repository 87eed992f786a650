// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The system's real-time clock (clock_gettime CLOCK_REALTIME).
public enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Today in the process's local time zone (TZ), as bills and schedules count days.
    public static func today() -> LocalDate {
        var seconds = time_t(nowMilliseconds() / 1000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil,
            let day = try? LocalDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        else { return LocalDate(unixMilliseconds: nowMilliseconds()) }
        return day
    }
}
