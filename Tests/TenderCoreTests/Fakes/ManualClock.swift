// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// A ``TenderClock`` that moves only when a test says so.
final class ManualClock: TenderClock {
    private let milliseconds: Mutex<Int64>
    private let day: LocalDate

    init(startingAt milliseconds: Int64 = 1_800_000_000_000, today: LocalDate = Fixtures.today) {
        self.milliseconds = Mutex(milliseconds)
        day = today
    }

    /// Moves both the wall and the monotonic time forward.
    func advance(seconds: Int64) { milliseconds.withLock { $0 += seconds * 1000 } }

    func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
    func monotonicMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
    func today() -> LocalDate { day }
}
