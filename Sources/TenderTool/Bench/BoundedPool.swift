// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// At most `capacity` values kept open at once, by index, each opened on demand by `open`; when one
/// more is opened, the least recently used is let go (closed when its last user drops it: a value in use
/// stays alive, so for a moment up to `capacity` + the number of users can be open).
/// Thread-safe. Opening runs outside the lock, so threads opening different indexes never wait for
/// each other; two threads opening the same index at once keep the first and drop the second.
final class BoundedPool<Value>: @unchecked Sendable {
    private struct Entry {
        var value: Value
        var lastUse: UInt64
    }

    private struct State {
        var open: [Int: Entry] = [:]
        var tick: UInt64 = 0
        var opened = 0
        var hits = 0
    }

    let capacity: Int
    private let open: (Int) throws -> Value
    private let state = PthreadLocked(State())

    init(capacity: Int, open: @escaping (Int) throws -> Value) {
        self.capacity = max(1, capacity)
        self.open = open
    }

    /// The value of `index`, opened now when it is not open; `opening` is told how long an open took.
    func value(_ index: Int, opening: (Double) -> Void = { _ in }) throws -> Value {
        if let found = state.withLock({ (state) -> Value? in
            state.tick += 1
            guard state.open[index] != nil else { return nil }
            state.open[index]?.lastUse = state.tick
            state.hits += 1
            return state.open[index]?.value
        }) {
            return found
        }
        let start = Stopwatch.now()
        let fresh = try open(index)
        opening(Stopwatch.now() - start)
        // The values let go are released after the lock: closing one may wait for the disk.
        let (kept, released) = state.withLock { (state) -> (Value, [Value]) in
            state.tick += 1
            if let other = state.open[index] { return (other.value, [fresh]) }
            state.open[index] = Entry(value: fresh, lastUse: state.tick)
            state.opened += 1
            var released: [Value] = []
            while state.open.count > capacity, let oldest = state.open.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                released.append(oldest.value.value)
                state.open[oldest.key] = nil
            }
            return (fresh, released)
        }
        _ = released
        return kept
    }

    /// How many values are open now, how many opens and how many hits there were.
    var counts: (open: Int, opened: Int, hits: Int) { state.withLock { ($0.open.count, $0.opened, $0.hits) } }

    /// Lets every value go (each closes when its last user drops it).
    func removeAll() {
        let released = state.withLock { (state) -> [Value] in
            defer { state.open.removeAll() }
            return state.open.values.map(\.value)
        }
        _ = released
    }
}
