// SPDX-License-Identifier: Apache-2.0
internal import CTenderModel

/// The trained slot labeller (scripts/train-understanding-model.py): a
/// linear-chain CRF over ``TagFeaturizer`` features with B-/I-/O labels,
/// decoded with Viterbi so that an I- label only continues its own kind.
/// Immutable and thread-safe; ``shared`` is read once from the bytes compiled
/// into the library.
public struct SlotTagger: Sendable {
    /// "O", then "B-person", "I-person", ... as trained.
    let labels: [String]
    /// transitions[from * count + to].
    let transitions: [Float]
    /// Where each known feature's weights are in `entries`.
    let table: FeatureTable
    /// The weights, feature after feature, each with the label it scores.
    let entries: [(label: UInt8, weight: Float)]
    /// For each label: the kind it belongs to (nil for O) and whether it begins a span.
    private let kinds: [(kind: String?, begins: Bool)]
    /// The labels each label may follow, label after label (an I- label only continues B- or I- of its own
    /// kind): from[fromStart[to]..<fromStart[to + 1]].
    private let from: [Int]
    private let fromStart: [Int]
    /// Which labels may start a sentence (not I-).
    private let startAllowed: [Bool]

    /// The labeller compiled into the library; nil only if its bytes are damaged.
    public static let shared: SlotTagger? = {
        SlotTagger(bytes: [UInt8](UnsafeBufferPointer(start: tdr_slot_model_bytes(), count: tdr_slot_model_size)))
    }()

    /// Reads the labeller's binary form ("TST1"); nil when it is malformed.
    init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.take(4) == Array("TST1".utf8), let labelCount = reader.u16().map(Int.init), labelCount > 0, labelCount < 256,
            let weightScale = reader.f32(), let featureCount = reader.u32().map(Int.init)
        else { return nil }
        var labels: [String] = []
        for _ in 0..<labelCount {
            guard let length = reader.u8(), let name = reader.take(Int(length)) else { return nil }
            labels.append(String(decoding: name, as: UTF8.self))
        }
        var transitions: [Float] = []
        for _ in 0..<(labelCount * labelCount) {
            guard let value = reader.f32() else { return nil }
            transitions.append(value)
        }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(featureCount)
        for _ in 0..<featureCount {
            guard let hash = reader.u64() else { return nil }
            hashes.append(hash)
        }
        guard let counts = reader.take(featureCount), let table = FeatureTable(hashes, counts: counts) else { return nil }
        let total = counts.reduce(0) { $0 + Int($1) }
        guard let raw = reader.take(total * 3), reader.atEnd else { return nil }
        var entries: [(label: UInt8, weight: Float)] = []
        entries.reserveCapacity(total)
        for i in 0..<total {
            guard Int(raw[3 * i]) < labelCount else { return nil }
            entries.append((raw[3 * i], Float(Int16(bitPattern: UInt16(raw[3 * i + 1]) | UInt16(raw[3 * i + 2]) << 8)) * weightScale))
        }
        var kinds: [(kind: String?, begins: Bool)] = []
        for label in labels {
            if label.hasPrefix("B-") || label.hasPrefix("I-") {
                kinds.append((String(label.dropFirst(2)), label.hasPrefix("B-")))
            } else {
                kinds.append((nil, false))
            }
        }
        var from: [Int] = []
        var fromStart = [0]
        for to in 0..<labelCount {
            for previous in 0..<labelCount where kinds[to].kind == nil || kinds[to].begins || kinds[previous].kind == kinds[to].kind {
                from.append(previous)
            }
            fromStart.append(from.count)
        }
        (self.labels, self.transitions, self.table, self.entries, self.kinds) = (labels, transitions, table, entries, kinds)
        (self.from, self.fromStart, self.startAllowed) = (from, fromStart, kinds.map { $0.kind == nil || $0.begins })
    }

    /// The best label of each token, by index into ``labels``, from ``TagFeaturizer/flatFeatures(_:)``.
    func decode(_ features: (hashes: [UInt64], ends: [Int])) -> [Int] {
        let n = features.ends.count
        let count = labels.count
        guard n > 0 else { return [] }
        var emission = [Float](repeating: 0, count: n * count)
        // Every token's features looked up at once (their cache misses overlap), then added up token by token.
        let found = table.find(features.hashes)
        emission.withUnsafeMutableBufferPointer { emission in
            entries.withUnsafeBufferPointer { entries in
                var start = 0
                for (t, end) in features.ends.enumerated() {
                    for slot in found[start..<end] {
                        guard let slot else { continue }
                        for entry in table.row(at: slot).entries {
                            emission[t * count + Int(entries[entry].label)] += entries[entry].weight
                        }
                    }
                    start = end
                }
            }
        }
        // Viterbi; an I- label may only follow B- or I- of its own kind.
        let impossible = -Float.greatestFiniteMagnitude
        var score = [Float](repeating: impossible, count: n * count)
        var back = [Int](repeating: 0, count: n * count)
        for l in 0..<count where startAllowed[l] { score[l] = emission[l] }
        score.withUnsafeMutableBufferPointer { score in
            back.withUnsafeMutableBufferPointer { back in
                from.withUnsafeBufferPointer { from in
                    fromStart.withUnsafeBufferPointer { fromStart in
                        transitions.withUnsafeBufferPointer { transitions in
                            for t in 1..<max(n, 1) {
                                let previous = (t - 1) * count
                                for l in 0..<count {
                                    var best = impossible
                                    var source = 0
                                    for p in from[fromStart[l]..<fromStart[l + 1]] where score[previous + p] > impossible {
                                        let s = score[previous + p] + transitions[p * count + l]
                                        if s > best { (best, source) = (s, p) }
                                    }
                                    if best > impossible { (score[t * count + l], back[t * count + l]) = (best + emission[t * count + l], source) }
                                }
                            }
                        }
                    }
                }
            }
        }
        var last = 0
        for l in 1..<count where score[(n - 1) * count + l] > score[(n - 1) * count + last] { last = l }
        var path = [Int](repeating: 0, count: n)
        path[n - 1] = last
        var t = n - 1
        while t > 0 {
            path[t - 1] = back[t * count + path[t]]
            t -= 1
        }
        return path
    }

    /// The labels of `u`'s tokens ("O", "B-person", ...).
    func labels(_ u: Utterance) -> [String] { decode(TagFeaturizer.flatFeatures(u)).map { labels[$0] } }

    /// The values `u` says, as spans of tokens.
    func spans(_ u: Utterance) -> [TaggedSpan] {
        let path = decode(TagFeaturizer.flatFeatures(u))
        var spans: [TaggedSpan] = []
        var i = 0
        while i < path.count {
            guard let kind = kinds[path[i]].kind else {
                i += 1
                continue
            }
            var end = i + 1
            while end < path.count, kinds[path[end]].kind == kind, !kinds[path[end]].begins { end += 1 }
            spans.append(TaggedSpan(slot: kind, tokens: i..<end))
            i = end
        }
        return spans
    }
}
