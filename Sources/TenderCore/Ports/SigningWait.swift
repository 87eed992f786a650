// SPDX-License-Identifier: Apache-2.0

/// How a signing batch's worker waits for the next message, and its caller at finish for a worker's signature
/// (``RecordSigner/startBatch(capacity:waiting:)``).
public enum SigningWait: Sendable {
    /// Spinning, yielding the CPU: awake at once when the message comes (SQLite's store, whose next message comes
    /// within microseconds).
    case spinning
    /// Asleep on a condition variable until a message is added, a signature stored or the batch ends: no CPU while
    /// the caller waits for a server between its messages (tenderd's PostgreSQL store), at the price of a wake-up
    /// per message.
    case sleeping
}
