// SPDX-License-Identifier: Apache-2.0
/// The Clock port: every time the engine reads. Production engines use the
/// system's clocks (TenderStore's ``SystemClock``); tests pass a clock they
/// move by hand, so nothing waits for real time to pass.
/// Implementations must be thread-safe.
public protocol TenderClock: Sendable {
    /// Wall time in milliseconds since the Unix epoch: record, key, audit and
    /// throttle times (shared by every process using a home).
    func nowMilliseconds() -> Int64
    /// A monotonic time in milliseconds that never jumps: the reuse window.
    func monotonicMilliseconds() -> Int64
    /// Today in the local time zone, as bills and schedules count days.
    func today() -> LocalDate
}

/// A clock that stands still at the epoch: for a gate that never reads the
/// time (``AuthenticationGate/open``, which asks nothing).
struct StoppedClock: TenderClock {
    func nowMilliseconds() -> Int64 { 0 }
    func monotonicMilliseconds() -> Int64 { 0 }
    func today() -> LocalDate { LocalDate(unixMilliseconds: 0) }
}
