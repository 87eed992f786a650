// SPDX-License-Identifier: Apache-2.0
/// A calendar day, "YYYY-MM-DD" (ISO 8601), as due dates and scheduled dates are said.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid Gregorian day of years 1970 to 9999, or ``TenderError/invalidArgument(_:)``.
    public init(year: Int, month: Int, day: Int) throws(TenderError) {
        guard (1970...9999).contains(year), (1...12).contains(month), (1...LocalDate.days(in: month, of: year)).contains(day) else {
            throw .invalidArgument("not a calendar day")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses "YYYY-MM-DD"; ``TenderError/invalidArgument(_:)`` naming `field` otherwise.
    public init(text: String, field: String) throws(TenderError) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D, let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else {
            throw .invalidArgument("\(field) must be a date \"YYYY-MM-DD\"")
        }
        do { try self.init(year: y, month: m, day: d) } catch { throw .invalidArgument("\(field) is not a calendar day") }
    }

    /// The day a Unix time in milliseconds falls on, in UTC.
    public init(unixMilliseconds: Int64) {
        self.init(daysSinceEpoch: Int(unixMilliseconds / 86_400_000))
    }

    /// The day `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        // Days since 1970-01-01 to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// The day of the week, 0 for Monday to 6 for Sunday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    /// The same day `count` months later (clamped to the month's last day).
    public func adding(months count: Int) -> LocalDate {
        let index = year * 12 + (month - 1) + count
        let (y, m) = (index / 12, index % 12 + 1)
        return (try? LocalDate(year: y, month: m, day: min(day, LocalDate.days(in: m, of: y)))) ?? self
    }

    /// The first day of this day's month.
    public var firstDayOfMonth: LocalDate { (try? LocalDate(year: year, month: month, day: 1)) ?? self }

    /// The last day of this day's month.
    public var lastDayOfMonth: LocalDate { (try? LocalDate(year: year, month: month, day: LocalDate.days(in: month, of: year))) ?? self }

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public var json: JSONValue { .string(description) }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}
