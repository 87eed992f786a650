// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(951_782_400_000), "2000-02-29T00:00:00.000Z"),
        (Int64(1_795_339_530_123), "2026-11-22T09:25:30.123Z"),
        (Int64(4_107_542_399_999), "2100-02-28T23:59:59.999Z"),
    ])
    func formatsRFC3339(milliseconds: Int64, text: String) {
        #expect(Timestamp.rfc3339(milliseconds: milliseconds) == text)
    }
}
