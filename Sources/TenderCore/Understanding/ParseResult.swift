// SPDX-License-Identifier: Apache-2.0
/// What Tender understood from one utterance: an intent document to start a
/// dialog with, or out_of_scope (and then no intent at all).
public struct ParseResult: Equatable, Sendable {
    /// How the intent was found.
    public enum Source: String, Sendable {
        case shortcut, model, rules, none
    }

    /// The intent document (with "intent" and the parameters found), nil when out of scope.
    public let intent: JSONValue?
    /// The text the result came from (one of the alternatives).
    public let text: String
    /// "en" or "es".
    public let language: String
    public let source: Source
    /// How sure: the model's margin, or 1 for shortcuts and rules.
    public let score: Float
    /// Whether the person named the app ("with Tender").
    public let namedApp: Bool

    public var isOutOfScope: Bool { intent == nil }

    /// The intent's name, or "out_of_scope".
    public var intentName: String { intent?["intent"]?.stringValue ?? "out_of_scope" }

    /// `{"intent": "send_payment" | "out_of_scope", "parameters": {...} | null, "text", "language", "source", "score", "namedApp"}`.
    public var json: JSONValue {
        var parameters: JSONValue = .null
        if case let .object(members)? = intent { parameters = .object(members.filter { $0.key != "intent" }) }
        return .object([
            ("intent", .string(intentName)), ("parameters", parameters), ("text", .string(text)), ("language", .string(language)),
            ("source", .string(source.rawValue)), ("score", .number(Self.decimal(score))), ("namedApp", .bool(namedApp)),
        ])
    }

    /// A score as JSON number text with three decimals, without Foundation.
    static func decimal(_ value: Float) -> String {
        let thousandths = Int((value * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
