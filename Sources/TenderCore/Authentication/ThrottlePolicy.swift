// SPDX-License-Identifier: Apache-2.0
/// How repeated authentication failures slow further attempts: after
/// `freeAttempts` consecutive failures, each further failure makes the person
/// wait `baseDelaySeconds`, doubling each time up to `maxDelaySeconds`. A
/// success resets the count. Kept in the store, so restarting does not reset it.
/// A configuration may only tighten the floors: at most ``maxFreeAttempts``
/// free attempts, a base delay of at least ``minBaseDelaySeconds`` and a
/// maximum of at least ``minMaxDelaySeconds``.
public struct ThrottlePolicy: Equatable, Sendable {
    /// The most free attempts a configuration may allow.
    public static let maxFreeAttempts = 5
    /// The shortest base delay a configuration may set, in seconds.
    public static let minBaseDelaySeconds: Int64 = 1
    /// The shortest maximum delay a configuration may set, in seconds.
    public static let minMaxDelaySeconds: Int64 = 60

    public let freeAttempts: Int
    public let baseDelaySeconds: Int64
    public let maxDelaySeconds: Int64

    /// Three free attempts, then 30 s doubling up to 15 min.
    public static let standard = ThrottlePolicy(freeAttempts: 3, baseDelaySeconds: 30, maxDelaySeconds: 900)

    public init(freeAttempts: Int, baseDelaySeconds: Int64, maxDelaySeconds: Int64) {
        self.freeAttempts = freeAttempts
        self.baseDelaySeconds = baseDelaySeconds
        self.maxDelaySeconds = maxDelaySeconds
    }

    /// The policy from `{"freeAttempts", "baseDelaySeconds", "maxDelaySeconds"}` (each optional,
    /// defaulting to ``standard``); refuses anything looser than the floors.
    public init(json: JSONValue) throws(TenderError) {
        let t = try ObjectReader(json, name: "authentication.throttle", allowed: ["freeAttempts", "baseDelaySeconds", "maxDelaySeconds"])
        func number(_ key: String, _ fallback: Int64, _ range: ClosedRange<Int64>) throws(TenderError) -> Int64 {
            guard let value = t[key] else { return fallback }
            guard case let .number(text) = value, text.utf8.count <= 6, let n = Int64(text), range.contains(n) else {
                throw .invalidArgument("authentication.throttle.\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        let free = try number("freeAttempts", Int64(Self.standard.freeAttempts), 0...Int64(Self.maxFreeAttempts))
        let base = try number("baseDelaySeconds", Self.standard.baseDelaySeconds, Self.minBaseDelaySeconds...86_400)
        let max = try number("maxDelaySeconds", Swift.max(Self.standard.maxDelaySeconds, base), Self.minMaxDelaySeconds...86_400)
        guard max >= base else { throw .invalidArgument("authentication.throttle.maxDelaySeconds must not be below baseDelaySeconds") }
        self.init(freeAttempts: Int(free), baseDelaySeconds: base, maxDelaySeconds: max)
    }

    /// The wait after `failures` consecutive failures, in seconds.
    public func delay(afterFailures failures: Int) -> Int64 {
        guard failures >= freeAttempts else { return 0 }
        var delay = baseDelaySeconds
        for _ in 0..<min(failures - freeAttempts, 40) where delay < maxDelaySeconds { delay *= 2 }
        return min(delay, maxDelaySeconds)
    }
}
