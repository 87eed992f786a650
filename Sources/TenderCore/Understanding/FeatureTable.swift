// SPDX-License-Identifier: Apache-2.0
/// A read-only map from 64-bit feature hashes to their row in a model, built
/// once when the model is loaded: open addressing with linear probing at a
/// load of at most one half, each slot holding its key and row side by side,
/// so a look-up costs about one cache miss. Immutable and thread-safe.
struct FeatureTable: Sendable {
    private struct Slot {
        var key: UInt64
        /// Row + 1 of the key; 0 marks an empty slot.
        var row: Int32
    }

    private let slots: [Slot]
    private let mask: Int

    /// A table of `hashes`, whose row is their index. Nil when a hash repeats.
    init?(_ hashes: [UInt64]) {
        var capacity = 16
        while capacity < hashes.count * 2 { capacity <<= 1 }
        var slots = [Slot](repeating: Slot(key: 0, row: 0), count: capacity)
        let mask = capacity - 1
        for (row, hash) in hashes.enumerated() {
            var at = Self.home(hash) & mask
            while slots[at].row != 0 {
                if slots[at].key == hash { return nil }
                at = (at + 1) & mask
            }
            slots[at] = Slot(key: hash, row: Int32(row + 1))
        }
        (self.slots, self.mask) = (slots, mask)
    }

    private static func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) }

    /// The row of `hash`, or nil when the model does not know it.
    func row(_ hash: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            var at = Self.home(hash) & mask
            while true {
                let slot = slots[at]
                if slot.row == 0 { return nil }
                if slot.key == hash { return Int(slot.row) - 1 }
                at = (at + 1) & mask
            }
        }
    }
}
