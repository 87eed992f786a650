// SPDX-License-Identifier: Apache-2.0
/// A range of days, either end open: `{"start": "2026-11-01", "end": "2026-11-30"}`, both ends included.
public struct DateRange: Equatable, Sendable {
    public let start: LocalDate?
    public let end: LocalDate?

    public init(start: LocalDate?, end: LocalDate?) {
        self.start = start
        self.end = end
    }

    /// Parses the JSON form; at least one end, and start not after end.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["start", "end"])
        let start = try reader.string("start", maxLength: 10).map { (t) throws(TenderError) in try LocalDate(text: t, field: "\(field).start") }
        let end = try reader.string("end", maxLength: 10).map { (t) throws(TenderError) in try LocalDate(text: t, field: "\(field).end") }
        guard start != nil || end != nil else { throw .invalidArgument("\(field) needs a start, an end or both") }
        if let start, let end, end < start { throw .invalidArgument("\(field) ends before it starts") }
        self.init(start: start, end: end)
    }

    public func contains(_ day: LocalDate) -> Bool {
        (start.map { $0 <= day } ?? true) && (end.map { day <= $0 } ?? true)
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let start { members.append(("start", start.json)) }
        if let end { members.append(("end", end.json)) }
        return .object(members)
    }
}
