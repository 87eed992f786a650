// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Synchronization
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 30.14: 3,000 throttled handles in 13 s made 3,002 flushed audit rows. Repeated identical
/// denials within a minute are now counted into one row.
@Suite struct AuditCoalescingTests {
    /// A clock the test moves (wall and monotonic time together).
    final class SteppedClock: TenderClock {
        private let now = Mutex<Int64>(1_700_000_000_000)
        func nowMilliseconds() -> Int64 { now.withLock { $0 } }
        func monotonicMilliseconds() -> Int64 { now.withLock { $0 } }
        func today() -> LocalDate { LocalDate(unixMilliseconds: nowMilliseconds()) }
        func advance(milliseconds: Int64) { now.withLock { $0 += milliseconds } }
    }

    private func store(_ home: TemporaryHome, _ clock: SteppedClock) throws -> SQLiteStore {
        try SQLiteStore.prepareHome(home.path)
        return try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path), crypto: OpenSSLLedgerCrypto(), clock: clock)
    }

    @Test func threeThousandThrottledDenialsInThirteenSecondsMakeOneRowThenASummary() throws {
        let home = TemporaryHome()
        let clock = SteppedClock()
        let store = try store(home, clock)
        for attempt in 0..<3000 {
            try store.audit(user: "alice", event: .throttled, intent: "send_payment", detail: "retry in \(60 - attempt / 100) s")
            clock.advance(milliseconds: 4)  // 3,000 in 12 s
        }
        var entries = try store.auditEntries()
        #expect(entries.count == 1)
        #expect(entries.first?.detail == "retry in 60 s")
        // Another kind of denial (another intent, another event) is a row of its own at once.
        try store.audit(user: "alice", event: .denied, intent: "send_payment", detail: "cancelled: the host set no conversation")
        try store.audit(user: "alice", event: .throttled, intent: "pay_bill", detail: "retry in 5 s")
        #expect(try store.auditEntries().count == 3)
        // Once the minute has passed, the count is written in one row, and the same denial starts a new one.
        clock.advance(milliseconds: 60_000)
        try store.audit(user: "alice", event: .throttled, intent: "send_payment", detail: "retry in 1 s")
        entries = try store.auditEntries()
        #expect(entries.count == 5)
        let summary = entries.first { $0.detail.contains("repeated") }
        #expect(summary?.event == "throttled" && summary?.intent == "send_payment")
        #expect(summary?.detail.hasPrefix("retry in 60 s [repeated 2999 more time(s) within 60 s") == true)
        #expect(entries.last?.detail == "retry in 1 s")
    }

    @Test func aCountStillOpenIsWrittenWhenTheStoreClosesAndKeepsTheTestingModeMark() throws {
        let home = TemporaryHome()
        let clock = SteppedClock()
        do {
            let store = try store(home, clock)
            for _ in 0..<10 {
                try store.audit(user: "bob", event: .denied, intent: "send_payment", detail: "testing mode (PAM service x): cancelled: no conversation")
            }
            #expect(try store.auditEntries().count == 1)
        }
        let reopened = try store(home, clock)
        let entries = try reopened.auditEntries()
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.detail.hasPrefix("testing mode") })
        #expect(entries.last?.detail.contains("repeated 9 more time(s)") == true)
        #expect(try reopened.testingModeAuditCount() == 2)
    }

    @Test func eachWrongPasswordKeepsItsOwnRow() throws {
        let home = TemporaryHome()
        let store = try store(home, SteppedClock())
        for _ in 0..<3 { try store.audit(user: "dan", event: .denied, intent: "send_payment", detail: "wrongCredentials: Authentication failure") }
        for _ in 0..<3 {
            try store.audit(user: "dan", event: .denied, intent: "send_payment", detail: "testing mode (PAM service x): accountUnavailable: expired")
        }
        #expect(try store.auditEntries().count == 6)
    }

    @Test func paymentsAreNeverCoalesced() throws {
        let home = TemporaryHome()
        let clock = SteppedClock()
        let store = try store(home, clock)
        for _ in 0..<5 { try store.audit(user: "carol", event: .authenticated, intent: "send_payment", detail: "restrictedIntent: PAM service tender") }
        for _ in 0..<5 { try store.audit(user: "carol", event: .notRequired, intent: "send_payment", detail: "policy unrestricted") }
        #expect(try store.auditEntries().count == 10)
    }
}
