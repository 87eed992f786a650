// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The benchmark's figures, printed as an aligned table or as JSON.
final class BenchTable {
    private var rows: [(key: String, label: String, value: Double, unit: String)] = []

    func add(_ key: String, _ label: String, _ value: Double, unit: String) { rows.append((key, label, value, unit)) }

    func text() -> String {
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            let value = row.unit == "x" ? format(row.value, decimals: 2) : format(row.value, decimals: 0)
            return row.label.padding(to: width) + "  " + String(repeating: " ", count: max(0, 12 - value.count)) + value + " " + row.unit
        }.joined(separator: "\n")
    }

    func json() -> String {
        JSONWriter.string(.object(rows.map { ($0.key, JSONValue.number(format($0.value, decimals: $0.unit == "x" ? 3 : 1))) }))
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
