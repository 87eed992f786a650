// SPDX-License-Identifier: Apache-2.0
/// A read-only map from 64-bit feature hashes to where their weights are in a
/// model, built once when the model is loaded: open addressing with linear
/// probing at a load of at most one half. Each slot holds its key, the start
/// and count of its weights and one byte of the model's own (the classifier's
/// idf) side by side, so a look-up costs about one cache miss and the weights
/// one more. Immutable and thread-safe.
struct FeatureTable: Sendable {
    /// What a known hash maps to.
    struct Row: Equatable, Sendable {
        /// The first of the feature's weights, in the model's entry order.
        var start: UInt32
        var count: UInt16
        var extra: UInt8
        /// 1 in a used slot, 0 in an empty one.
        fileprivate var used: UInt8

        /// The range of the feature's weights.
        var entries: Range<Int> { Int(start)..<(Int(start) + Int(count)) }
    }

    private struct Slot {
        var key: UInt64
        var row: Row
    }

    private let slots: [Slot]
    private let mask: Int

    /// A table of `hashes`, whose weights follow one another in that order, `counts[i]` for hash i; `extra[i]` is kept
    /// with hash i (zero when `extra` is empty). Nil when a hash repeats or the arrays' lengths differ.
    init?(_ hashes: [UInt64], counts: [UInt8], extra: [UInt8] = []) {
        guard counts.count == hashes.count, extra.isEmpty || extra.count == hashes.count else { return nil }
        var capacity = 16
        while capacity < hashes.count * 2 { capacity <<= 1 }
        var slots = [Slot](repeating: Slot(key: 0, row: Row(start: 0, count: 0, extra: 0, used: 0)), count: capacity)
        let mask = capacity - 1
        var start: UInt32 = 0
        for (i, hash) in hashes.enumerated() {
            var at = Self.home(hash) & mask
            while slots[at].row.used != 0 {
                if slots[at].key == hash { return nil }
                at = (at + 1) & mask
            }
            slots[at] = Slot(key: hash, row: Row(start: start, count: UInt16(counts[i]), extra: extra.isEmpty ? 0 : extra[i], used: 1))
            start += UInt32(counts[i])
        }
        (self.slots, self.mask) = (slots, mask)
    }

    private static func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) }

    /// Where `hash`'s weights are, or nil when the model does not know it.
    func row(_ hash: UInt64) -> Row? {
        slots.withUnsafeBufferPointer { slots in
            var at = Self.home(hash) & mask
            while true {
                let slot = slots[at]
                if slot.row.used == 0 { return nil }
                if slot.key == hash { return slot.row }
                at = (at + 1) & mask
            }
        }
    }
}
