// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The benchmark's figures, printed as an aligned table or as JSON.
final class BenchTable {
    private var rows: [(key: String, label: String, value: Double, unit: String)] = []

    func add(_ key: String, _ label: String, _ value: Double, unit: String) { rows.append((key, label, value, unit)) }

    /// Two rows for `latencies`: the median and the 99th percentile, in milliseconds (`latency_KEY_p50_ms`, `_p99_ms`).
    func addLatencies(_ key: String, _ label: String, _ latencies: Latencies) {
        add("latency_\(key)_p50_ms", label + ", p50", latencies.percentileMilliseconds(0.5), unit: "ms")
        add("latency_\(key)_p99_ms", label + ", p99", latencies.percentileMilliseconds(0.99), unit: "ms")
    }

    /// The median of each step of a dialog, in microseconds (`step_NAME_p50_us`): where a payment's time goes.
    func addSteps(_ names: [String], _ steps: [Latencies]) {
        for (name, latencies) in zip(names, steps) {
            add("step_\(name)_p50_us", "  step: \(name), p50", latencies.percentileMilliseconds(0.5) * 1000, unit: "us")
        }
    }

    func text() -> String {
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            let value = format(row.value, decimals: Self.decimals(row.unit, json: false))
            return row.label.padding(to: width) + "  " + String(repeating: " ", count: max(0, 12 - value.count)) + value + " " + row.unit
        }.joined(separator: "\n")
    }

    func json() -> String {
        JSONWriter.string(.object(rows.map { ($0.key, JSONValue.number(format($0.value, decimals: Self.decimals($0.unit, json: true)))) }))
    }

    /// Ratios, milliseconds and counts a payment keep their fractions; rates and counts are whole.
    private static func decimals(_ unit: String, json: Bool) -> Int {
        switch unit {
        case "x": return json ? 3 : 2
        case "ms": return 3
        case "us": return 1
        case "/pay": return 2
        default: return json ? 1 : 0
        }
    }

    private func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        guard decimals > 0 else { return String(scaled) }
        let whole = scaled / Int64(scale)
        let fraction = String(abs(scaled % Int64(scale)))
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}
