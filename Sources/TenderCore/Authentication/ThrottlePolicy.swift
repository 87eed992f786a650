/// How repeated authentication failures slow further attempts: after
/// `freeAttempts` consecutive failures, each further failure makes the person
/// wait `baseDelaySeconds`, doubling each time up to `maxDelaySeconds`. A
/// success resets the count. Kept in the store, so restarting does not reset it.
public struct ThrottlePolicy: Equatable, Sendable {
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

    /// The wait after `failures` consecutive failures, in seconds.
    public func delay(afterFailures failures: Int) -> Int64 {
        guard failures >= freeAttempts else { return 0 }
        var delay = baseDelaySeconds
        for _ in 0..<min(failures - freeAttempts, 40) where delay < maxDelaySeconds { delay *= 2 }
        return min(delay, maxDelaySeconds)
    }
}
