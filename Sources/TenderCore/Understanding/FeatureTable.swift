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
        /// The first of the feature's weights, in the model's entry order; for a dense row, its place among the
        /// dense rows.
        var start: UInt32
        var count: UInt16
        var extra: UInt8
        /// 0 in an empty slot, 1 in a used one, 2 in a used one whose weights the model keeps as a dense row.
        fileprivate var used: UInt8

        /// Whether the model keeps this feature's weights as a dense row (``FeatureTable/init(_:counts:extra:denseFrom:)``).
        var isDense: Bool { used == 2 }

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
    /// with hash i (zero when `extra` is empty). A hash with at least `denseFrom` weights is dense: its row's start is
    /// its place among the dense rows, and the other rows' starts count only the others' weights. Nil when a hash
    /// repeats or the arrays' lengths differ.
    init?(_ hashes: [UInt64], counts: [UInt8], extra: [UInt8] = [], denseFrom: Int = Int.max) {
        guard counts.count == hashes.count, extra.isEmpty || extra.count == hashes.count else { return nil }
        var capacity = 16
        while capacity < hashes.count * 2 { capacity <<= 1 }
        var slots = [Slot](repeating: Slot(key: 0, row: Row(start: 0, count: 0, extra: 0, used: 0)), count: capacity)
        let mask = capacity - 1
        var start: UInt32 = 0
        var denseRows: UInt32 = 0
        for (i, hash) in hashes.enumerated() {
            var at = Self.home(hash) & mask
            while slots[at].row.used != 0 {
                if slots[at].key == hash { return nil }
                at = (at + 1) & mask
            }
            let dense = Int(counts[i]) >= denseFrom
            let row = Row(start: dense ? denseRows : start, count: UInt16(counts[i]), extra: extra.isEmpty ? 0 : extra[i], used: dense ? 2 : 1)
            slots[at] = Slot(key: hash, row: row)
            if dense { denseRows += 1 } else { start += UInt32(counts[i]) }
        }
        (self.slots, self.mask) = (slots, mask)
    }

    private static func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) }

    /// The slot each of `hashes` is found in (nil for a hash the model does not know), in order. The slots the
    /// hashes start at are all read first, with no decision in between, so that their cache misses overlap
    /// instead of waiting one after another; only a hash not in its first slot probes further.
    func find(_ hashes: [UInt64]) -> [Int32?] {
        slots.withUnsafeBufferPointer { slots in
            hashes.withUnsafeBufferPointer { hashes in
                let first = [Slot](unsafeUninitializedCapacity: hashes.count) { buffer, count in
                    for (i, hash) in hashes.enumerated() { (buffer.baseAddress! + i).initialize(to: slots[Self.home(hash) & mask]) }
                    count = hashes.count
                }
                return hashes.indices.map { i -> Int32? in
                    let hash = hashes[i]
                    if first[i].row.used == 0 { return nil }
                    if first[i].key == hash { return Int32(truncatingIfNeeded: Self.home(hash) & mask) }
                    var at = (Self.home(hash) + 1) & mask
                    while true {
                        let slot = slots[at]
                        if slot.row.used == 0 { return nil }
                        if slot.key == hash { return Int32(truncatingIfNeeded: at) }
                        at = (at + 1) & mask
                    }
                }
            }
        }
    }

    /// The row in slot `at`, a slot ``find(_:)`` returned.
    func row(at: Int32) -> Row { slots[Int(at)].row }

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
