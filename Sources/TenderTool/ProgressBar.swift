// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error for long commands (verify, bench):
/// the bar, the share done, a rate and the time left. It draws only when standard
/// error is a terminal (and TERM is not "dumb") and the caller did not ask for JSON;
/// otherwise every call does nothing. At most ten redraws a second, the first and the
/// last always; ``finish()`` erases the line. Used by one thread at a time.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private var lastDraw = -Double.infinity
    private var drawn = false

    /// A bar titled `label`; `quiet` (e.g. --json) turns it off.
    init(_ label: String, quiet: Bool) {
        self.label = label
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        enabled = !quiet && isatty(STDERR_FILENO) != 0 && term != "dumb"
    }

    /// Whether the bar draws at all.
    var isShown: Bool { enabled }

    /// Draws `fraction` (0...1) with `detail` (e.g. "1,234/5,000 records, 2,345/s") and the
    /// seconds left (nil: unknown), unless the last redraw was under 0.1 s ago (`force` draws anyway).
    func show(fraction: Double, detail: String, secondsLeft: Double?, force: Bool = false) {
        guard enabled else { return }
        let now = Stopwatch.now()
        guard force || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let share = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        var tail = "\(Int(share * 100))%  \(detail)"
        if let secondsLeft, secondsLeft.isFinite { tail += "  \(Self.clock(secondsLeft)) left" }
        let columns = Self.columns()
        let width = max(10, min(40, columns - label.count - tail.count - 5))
        let filled = Int(share * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var line = "\(label) [\(bar)] \(tail)"
        if line.count > columns - 1 { line = String(line.prefix(max(0, columns - 1))) }
        write("\r" + line + "\u{1B}[K")
        drawn = true
    }

    /// Draws `done` of `total` items at the rate measured since `start`, with the time left at that rate.
    func count(_ done: Int, of total: Int, unit: String, since start: Double, force: Bool = false) {
        guard enabled else { return }
        let elapsed = Stopwatch.now() - start
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : nil
        show(fraction: total > 0 ? Double(done) / Double(total) : 1,
             detail: "\(Self.grouped(done))/\(Self.grouped(total)) \(unit), \(Self.grouped(Int(rate)))/s",
             secondsLeft: left, force: force)
    }

    /// Erases the bar, leaving the cursor at the start of an empty line.
    func finish() {
        guard enabled, drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// "m:ss" (or "h:mm:ss").
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    private static func columns() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
