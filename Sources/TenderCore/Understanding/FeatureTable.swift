/// A read-only map from 64-bit feature hashes to their row in a model, built
/// once when the model is loaded: open addressing with linear probing at a
/// load of at most one half, so a look-up costs about one cache miss.
/// Immutable and thread-safe.
struct FeatureTable: Sendable {
    private let keys: [UInt64]
    /// Row + 1 of the key in the same slot; 0 marks an empty slot.
    private let rows: [Int32]
    private let mask: Int

    /// A table of `hashes`, whose row is their index. Nil when a hash repeats.
    init?(_ hashes: [UInt64]) {
        var capacity = 16
        while capacity < hashes.count * 2 { capacity <<= 1 }
        var keys = [UInt64](repeating: 0, count: capacity)
        var rows = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for (row, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while rows[slot] != 0 {
                if keys[slot] == hash { return nil }
                slot = (slot + 1) & mask
            }
            keys[slot] = hash
            rows[slot] = Int32(row + 1)
        }
        (self.keys, self.rows, self.mask) = (keys, rows, mask)
    }

    /// The row of `hash`, or nil when the model does not know it.
    func row(_ hash: UInt64) -> Int? {
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let row = rows[slot]
            if row == 0 { return nil }
            if keys[slot] == hash { return Int(row) - 1 }
            slot = (slot + 1) & mask
        }
    }
}
