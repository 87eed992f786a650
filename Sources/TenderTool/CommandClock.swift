// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderStore

/// The system's clocks, with the day a command works on (the demo and ask
/// fix it for a whole session).
struct CommandClock: TenderClock {
    let day: @Sendable () -> LocalDate
    private let system = SystemClock()

    func nowMilliseconds() -> Int64 { system.nowMilliseconds() }
    func monotonicMilliseconds() -> Int64 { system.monotonicMilliseconds() }
    func today() -> LocalDate { day() }
}
