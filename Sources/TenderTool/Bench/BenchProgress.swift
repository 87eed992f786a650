// SPDX-License-Identifier: Apache-2.0
/// `tender bench`'s progress on a terminal: which measurement runs, the share done and the
/// time left, estimated from `--seconds` per timed measurement; filling and verifying the
/// ledger count payments and checks with their rate (``ProgressBar``).
final class BenchProgress: @unchecked Sendable {
    let bar: ProgressBar
    private let seconds: Double
    private let steps: Int
    private var step = 0
    private var name = ""

    /// `timed` measurements of about `seconds` each, then the ledger fill and its verification.
    init(timed: Int, seconds: Double, quiet: Bool) {
        bar = ProgressBar("bench", quiet: quiet)
        self.seconds = seconds
        steps = timed + 2
    }

    /// The next timed measurement, `name`, starts.
    func begin(_ name: String) {
        step += 1
        self.name = name
        let left = Double(max(0, steps - 2 - step + 1)) * seconds
        bar.show(fraction: Double(step - 1) / Double(steps), detail: "\(name) (\(step)/\(steps))", secondsLeft: left, force: true)
    }

    /// Counted work (`unit`: "payments", "checks") of the step `name`, its rate since `start`.
    func counted(_ name: String, done: Int, total: Int, unit: String, start: Double) {
        guard bar.isShown else { return }
        if self.name != name { step += 1; self.name = name }
        let elapsed = Stopwatch.now() - start
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let share = total > 0 ? Double(done) / Double(total) : 1
        bar.show(fraction: (Double(step - 1) + share) / Double(steps),
                 detail: "\(name) \(ProgressBar.grouped(done))/\(ProgressBar.grouped(total)) \(unit), \(ProgressBar.grouped(Int(rate)))/s (\(step)/\(steps))",
                 secondsLeft: rate > 0 ? Double(total - done) / rate : nil, force: done == total)
    }

    func finish() { bar.finish() }
}
