// SPDX-License-Identifier: Apache-2.0
/// Finds the days and ranges of days an utterance says, relative to today:
/// "today", "tomorrow", "yesterday", "on the 15th", "next Friday", "this
/// month", "last week"; in Spanish "hoy", "mañana", "pasado mañana", "el
/// viernes", "el próximo lunes", "esta semana", "la semana pasada", "el mes
/// que viene".
public enum DateExtractor {
    /// A day or a range found, and the tokens it spans.
    public struct Found: Equatable, Sendable {
        public let day: LocalDate?
        public let range: DateRange?
        public let tokens: Range<Int>
    }

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]
    static let ordinalSuffixes: Set<String> = ["st", "nd", "rd", "th"]

    /// Every date phrase in `tokens`, left to right, without overlaps.
    public static func find(in tokens: [TextToken], today: LocalDate) -> [Found] {
        var found: [Found] = []
        var index = 0
        while index < tokens.count {
            if let hit = match(tokens, at: index, today: today) {
                found.append(hit)
                index = hit.tokens.upperBound
            } else {
                index += 1
            }
        }
        return found
    }

    private static func word(_ tokens: [TextToken], _ i: Int) -> String? {
        i < tokens.count && tokens[i].kind == .word ? tokens[i].text : nil
    }

    static let weekdaysES: [String: Int] = [
        "lunes": 0, "martes": 1, "miércoles": 2, "miercoles": 2, "jueves": 3, "viernes": 4, "sábado": 5, "sabado": 5, "domingo": 6,
    ]

    static let nextES: Set<String> = ["próximo", "proximo", "próxima", "proxima"]
    /// The words a Spanish date phrase can start with.
    static let spanishOpenings: Set<String> = Set(weekdaysES.keys).union(nextES).union(["el", "la", "este", "esta"])

    /// A Spanish date phrase at `i`: "el viernes", "el próximo lunes", "el viernes pasado", "esta semana", "la
    /// semana pasada", "la próxima semana", "el mes que viene", "este año". "la semana" alone says no date.
    private static func spanish(_ tokens: [TextToken], at i: Int, today: LocalDate) -> Found? {
        guard let opening = word(tokens, i), spanishOpenings.contains(opening) else { return nil }
        var j = i
        var offset: Int?
        let first = word(tokens, j)
        if first == "este" || first == "esta" {
            offset = 0
            j += 1
        } else if first == "el" || first == "la" {
            j += 1
        }
        if let w = word(tokens, j), nextES.contains(w) {
            offset = 1
            j += 1
        }
        guard let unit = word(tokens, j) else { return nil }
        var end = j + 1
        if word(tokens, end) == "pasado" || word(tokens, end) == "pasada" {
            offset = -1
            end += 1
        } else if word(tokens, end) == "que", word(tokens, end + 1) == "viene" {
            offset = 1
            end += 2
        }
        let said = i..<end
        if let weekday = weekdaysES[unit] {
            return Found(day: nextWeekday(weekday, after: today, backwards: (offset ?? 1) < 0), range: nil, tokens: said)
        }
        guard let offset else { return nil }
        switch unit {
        case "semana":
            let monday = today.adding(days: -today.weekday + 7 * offset)
            return Found(day: nil, range: DateRange(start: monday, end: monday.adding(days: 6)), tokens: said)
        case "mes":
            let month = today.adding(months: offset)
            return Found(day: nil, range: DateRange(start: month.firstDayOfMonth, end: month.lastDayOfMonth), tokens: said)
        case "año":
            let y = today.year + offset
            let range = DateRange(start: try? LocalDate(year: y, month: 1, day: 1), end: try? LocalDate(year: y, month: 12, day: 31))
            return Found(day: nil, range: range, tokens: said)
        default:
            return nil
        }
    }

    /// Every word a date can start with (the cases of `match` and `spanish`): one look-up turns away the other words.
    static let openings: Set<String> = spanishOpenings.union(weekdays).union(months).union([
        "pasado", "today", "tonight", "hoy", "heute", "tomorrow", "mañana", "morgen", "yesterday", "ayer", "gestern", "this", "next",
        "last", "past", "previous", "coming", "the", "on",
    ])

    private static func match(_ tokens: [TextToken], at i: Int, today: LocalDate) -> Found? {
        guard let w = word(tokens, i), openings.contains(w) else { return nil }
        if w == "pasado", word(tokens, i + 1) == "mañana" { return Found(day: today.adding(days: 2), range: nil, tokens: i..<(i + 2)) }
        if let found = spanish(tokens, at: i, today: today) { return found }
        func day(_ d: LocalDate, _ n: Int) -> Found { Found(day: d, range: nil, tokens: i..<(i + n)) }
        func span(_ r: DateRange, _ n: Int) -> Found { Found(day: nil, range: r, tokens: i..<(i + n)) }
        switch w {
        case "today", "tonight", "hoy", "heute": return day(today, 1)
        case "tomorrow", "mañana", "morgen": return day(today.adding(days: 1), 1)
        case "yesterday", "ayer", "gestern": return day(today.adding(days: -1), 1)
        case "this", "next", "last", "past", "previous", "coming":
            let offset = w == "this" ? 0 : (w == "next" || w == "coming" ? 1 : -1)
            switch word(tokens, i + 1) {
            case "month":
                let month = today.adding(months: offset)
                return span(DateRange(start: month.firstDayOfMonth, end: month.lastDayOfMonth), 2)
            case "week":
                let monday = today.adding(days: -today.weekday + 7 * offset)
                return span(DateRange(start: monday, end: monday.adding(days: 6)), 2)
            case "year":
                let y = today.year + offset
                return span(DateRange(start: try? LocalDate(year: y, month: 1, day: 1), end: try? LocalDate(year: y, month: 12, day: 31)), 2)
            case let name? where weekdays.contains(name):
                return day(nextWeekday(weekdays.firstIndex(of: name) ?? 0, after: today, backwards: offset < 0), 2)
            default: return nil
            }
        case let name where weekdays.contains(name):
            return day(nextWeekday(weekdays.firstIndex(of: name) ?? 0, after: today, backwards: false), 1)
        case let name where months.contains(name) && name != "may":
            // "march 15", "march 15th": the next such day, this year or next.
            guard i + 1 < tokens.count, tokens[i + 1].kind == .number, let n = Int(tokens[i + 1].text), (1...31).contains(n),
                let month = months.firstIndex(of: name).map({ $0 + 1 })
            else { return nil }
            let length = word(tokens, i + 2).map { ordinalSuffixes.contains($0) } == true ? 3 : 2
            var date = try? LocalDate(year: today.year, month: month, day: n)
            if let found = date, found < today { date = try? LocalDate(year: today.year + 1, month: month, day: n) }
            return date.map { day($0, length) }
        case "the", "on":
            // "on the 15th", "the 15th", "on 15th"
            var j = i + 1
            if word(tokens, j) == "the" { j += 1 }
            guard j < tokens.count, tokens[j].kind == .number, let n = Int(tokens[j].text), (1...31).contains(n),
                let suffix = word(tokens, j + 1), ordinalSuffixes.contains(suffix)
            else { return nil }
            return day(nextDayOfMonth(n, after: today), j + 2 - i)
        default:
            return nil
        }
    }

    /// The next `weekday` (0 Monday) after today, or the last one before it.
    static func nextWeekday(_ weekday: Int, after today: LocalDate, backwards: Bool) -> LocalDate {
        if backwards {
            let back = (today.weekday - weekday + 7) % 7
            return today.adding(days: -(back == 0 ? 7 : back))
        }
        let ahead = (weekday - today.weekday + 7) % 7
        return today.adding(days: ahead == 0 ? 7 : ahead)
    }

    /// Day `n` of this month if it is still to come (today included), else of the next month that has it.
    static func nextDayOfMonth(_ n: Int, after today: LocalDate) -> LocalDate {
        var month = today.firstDayOfMonth
        if n < today.day { month = month.adding(months: 1) }
        for _ in 0..<3 {
            if let date = try? LocalDate(year: month.year, month: month.month, day: n) { return date }
            month = month.adding(months: 1)
        }
        return today
    }
}
