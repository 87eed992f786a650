// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The figures of `tender eval`: accuracy on in-scope lines, false accepts on
/// out-of-scope lines, the confusion table, the slots, and the parse and signature costs.
struct EvalReport {
    let expected: [String]
    let predicted: [String]
    let slots: SlotScore
    let parseSeconds: [Double]
    let signSeconds: [Double]

    private var scored: [(expected: String, predicted: String)] {
        zip(expected, predicted).filter { $0.0 != "any" }.map { ($0.0, $0.1) }
    }

    var inScope: [(expected: String, predicted: String)] { scored.filter { $0.expected != "out_of_scope" } }
    var outOfScope: [(expected: String, predicted: String)] { scored.filter { $0.expected == "out_of_scope" } }

    var inScopeAccuracy: Double {
        inScope.isEmpty ? 0 : Double(inScope.filter { Self.matches($0.expected, $0.predicted) }.count) / Double(inScope.count)
    }

    /// Whether `predicted` is the expected label or one of its "|" alternatives.
    static func matches(_ expected: String, _ predicted: String) -> Bool {
        expected == predicted || expected.split(separator: "|").contains { $0 == predicted }
    }

    private static func slotJSON(_ counts: SlotScore.Counts) -> JSONValue {
        .object([
            ("precision", .number(fixed(counts.precision, 4))), ("recall", .number(fixed(counts.recall, 4))), ("f1", .number(fixed(counts.f1, 4))),
            ("gold", .number(String(counts.gold))), ("predicted", .number(String(counts.predicted))),
        ])
    }

    var falseAcceptRate: Double {
        outOfScope.isEmpty ? 0 : Double(outOfScope.filter { $0.predicted != "out_of_scope" }.count) / Double(outOfScope.count)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var parseMicroseconds: Double { Self.median(parseSeconds) * 1e6 }
    var signMicroseconds: Double { Self.median(signSeconds) * 1e6 }

    /// Expected label → predicted label → count, over the scored lines.
    var confusion: [(expected: String, counts: [(predicted: String, count: Int)])] {
        let labels = Array(Set(scored.map(\.expected))).sorted()
        return labels.map { label in
            let row = scored.filter { $0.expected == label }
            let predictions = Array(Set(row.map(\.predicted))).sorted()
            return (label, predictions.map { p in (p, row.filter { $0.predicted == p }.count) })
        }
    }

    var json: JSONValue {
        .object([
            ("lines", .number(String(expected.count))), ("in_scope_lines", .number(String(inScope.count))),
            ("out_of_scope_lines", .number(String(outOfScope.count))),
            ("in_scope_accuracy", .number(Self.fixed(inScopeAccuracy, 4))), ("false_accept_rate", .number(Self.fixed(falseAcceptRate, 4))),
            ("parse_us_median", .number(Self.fixed(parseMicroseconds, 2))), ("sign_us_median", .number(Self.fixed(signMicroseconds, 2))),
            ("parse_to_sign_ratio", .number(Self.fixed(signMicroseconds > 0 ? parseMicroseconds / signMicroseconds : 0, 3))),
            ("slot_f1", .number(Self.fixed(slots.total.f1, 4))), ("slot_kinds_scored", .array(slots.annotated.map { .string($0) })),
            ("slots", .object(slots.counts.keys.sorted().map { ($0, Self.slotJSON(slots.counts[$0] ?? SlotScore.Counts())) })),
            ("confusion", .object(confusion.map { row in (row.expected, .object(row.counts.map { ($0.predicted, .number(String($0.count))) })) })),
        ])
    }

    var table: String {
        var lines = [
            "lines: \(expected.count) (\(inScope.count) in scope, \(outOfScope.count) out of scope, \(expected.count - inScope.count - outOfScope.count) not scored)",
            "in-scope accuracy:        \(Self.fixed(inScopeAccuracy, 4))   (target ≥ 0.97)",
            "false-accept rate:        \(Self.fixed(falseAcceptRate, 4))   (target ≤ 0.005)",
            "parse, median:            \(Self.fixed(parseMicroseconds, 2)) µs",
            "one signature, median:    \(Self.fixed(signMicroseconds, 2)) µs",
            "parse / signature:        \(Self.fixed(signMicroseconds > 0 ? parseMicroseconds / signMicroseconds : 0, 3))   (target ≤ 1.0)",
            "slot F1 (all slots):      \(Self.fixed(slots.total.f1, 4))   (\(slots.total.gold) values in the file)",
        ]
        for name in slots.counts.keys.sorted() {
            let row = slots.counts[name] ?? SlotScore.Counts()
            guard row.gold > 0 else {
                lines.append("  \(name.padding(to: 14)) \(row.predicted) found; the file annotates none, not scored")
                continue
            }
            lines.append(
                "  \(name.padding(to: 14)) P \(Self.fixed(row.precision, 4))  R \(Self.fixed(row.recall, 4))  F1 \(Self.fixed(row.f1, 4))  (\(row.gold) gold, \(row.predicted) found)")
        }
        lines += [
            "",
            "confusion (expected → predicted: count)",
        ]
        for row in confusion {
            lines.append("  \(row.expected.padding(to: 20)) " + row.counts.map { "\($0.predicted): \($0.count)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// `value` with `digits` decimals, as text (no Foundation).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        return (value < 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
    }
}
