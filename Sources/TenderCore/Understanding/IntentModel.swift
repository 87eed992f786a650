// SPDX-License-Identifier: Apache-2.0
internal import CTenderModel

/// The trained intent classifier (scripts/train-understanding-model.py): a
/// linear model over tf-idf weighted feature hashes, one score per label
/// (the seven intents, and the many kinds of unrelated request of CLINC150,
/// SGD and the generated Spanish data), each label mapped to a Tender intent
/// or out_of_scope. Scores become probabilities by a softmax at the
/// temperature calibrated in training. Whether the text is a payments request
/// at all is decided on the probability of every in-scope label together
/// against the threshold chosen in training; then the in-scope intent whose
/// labels hold the most probability is the intent. Immutable and thread-safe;
/// ``shared`` is read once from the bytes compiled into the library.
public struct IntentModel: Sendable {
    /// What the model decided about one utterance.
    public struct Decision: Equatable, Sendable {
        /// A Tender intent name, or "out_of_scope".
        public let intent: String
        /// The label that scored best.
        public let label: String
        /// The decided intent's probability (its labels together, 0 to 1); out of scope, the in-scope probability.
        public let score: Float
        /// The probability of every in-scope label together, compared with the threshold.
        public let inScope: Float
        /// Whether send_payment and transfer_money share the probability (the second of the two holds at least
        /// ``sharedShare`` of their sum): the words alone do not say whether the money goes to someone else.
        public let moneyGoesEitherWay: Bool
    }

    /// The share of send_payment's and transfer_money's probability the second of the two needs for the words to
    /// leave open which of the two is meant.
    public static let sharedShare: Float = 0.25

    static let targets = [
        "out_of_scope", "pay_bill", "transfer_money", "search_for_accounts", "search_for_bills", "search_for_payments", "send_payment",
        "request_payment",
    ]

    let labels: [String]
    let targetOf: [Int]
    let intercepts: [Float]
    let weightScale: Float
    let idfScale: Float
    /// The probability an in-scope label needs.
    let rejectBelow: Float
    let temperature: Float
    /// Each known feature's weights, with its quantised idf as the row's extra byte.
    let table: FeatureTable
    /// The weights of the features with few of them, feature after feature: (label index, quantised weight) byte pairs.
    let entries: [UInt8]
    /// The weights of the features with many (at least ``denseShare`` of the labels), one row of `labels.count`
    /// quantised weights per feature (zero where the model has none): added in one pass over the scores, which the
    /// compiler turns into vector instructions, instead of label by label.
    let dense: [Int8]
    /// The largest quantised idf: a feature training never saw counts as the rarest.
    let maxIdf: UInt8

    /// The model compiled into the library; nil only if its bytes are damaged.
    public static let shared: IntentModel? = {
        IntentModel(bytes: [UInt8](UnsafeBufferPointer(start: tdr_intent_model_bytes(), count: tdr_intent_model_size)))
    }()

    /// Reads the model's binary form; nil when it is malformed.
    init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.take(4) == Array("TIM2".utf8), let classCount = reader.u16(), classCount > 0, let weightScale = reader.f32(),
            let idfScale = reader.f32(), let featureCount = reader.u32(), let rejectBelow = reader.f32(), let temperature = reader.f32(),
            temperature > 0
        else { return nil }
        var labels: [String] = []
        var targetOf: [Int] = []
        for _ in 0..<classCount {
            guard let length = reader.u8(), let name = reader.take(Int(length)), let target = reader.u8(), Int(target) < Self.targets.count else { return nil }
            labels.append(String(decoding: name, as: UTF8.self))
            targetOf.append(Int(target))
        }
        var intercepts: [Float] = []
        for _ in 0..<classCount {
            guard let value = reader.f32() else { return nil }
            intercepts.append(value)
        }
        let count = Int(featureCount)
        var hashes: [UInt64] = []
        hashes.reserveCapacity(count)
        for _ in 0..<count {
            guard let hash = reader.u64() else { return nil }
            hashes.append(hash)
        }
        let denseFrom = max(1, Int(classCount) / Self.denseShare)
        guard let idf = reader.take(count), let counts = reader.take(count),
            let table = FeatureTable(hashes, counts: counts, extra: idf, denseFrom: denseFrom)
        else { return nil }
        let total = counts.reduce(0) { $0 + Int($1) }
        guard let all = reader.take(total * 2), reader.atEnd else { return nil }
        for i in 0..<total where Int(all[2 * i]) >= Int(classCount) { return nil }
        var entries: [UInt8] = []
        var dense: [Int8] = []
        var at = 0
        for n in counts.map(Int.init) {
            let weights = all[(2 * at)..<(2 * (at + n))]
            if n >= denseFrom {
                let row = dense.count
                dense.append(contentsOf: repeatElement(0, count: Int(classCount)))
                for k in stride(from: weights.startIndex, to: weights.endIndex, by: 2) {
                    dense[row + Int(weights[k])] = Int8(bitPattern: weights[k + 1])
                }
            } else {
                entries.append(contentsOf: weights)
            }
            at += n
        }
        (self.labels, self.targetOf, self.intercepts) = (labels, targetOf, intercepts)
        (self.weightScale, self.idfScale, self.rejectBelow, self.temperature) = (weightScale, idfScale, rejectBelow, temperature)
        (self.table, self.entries, self.dense, self.maxIdf) = (table, entries, dense, idf.max() ?? 1)
    }

    /// The decision for an utterance's feature hashes (``Featurizer/features(_:)``).
    public func decide(_ features: [UInt64]) -> Decision {
        // Term counts of the known features, tf-idf weighted and L2-normalised as in training. A slot of the table
        // holds one feature, so the repeats of a feature are counted by its slot, in a small table of their own.
        let found = table.find(features)
        var capacity = 16
        while capacity < found.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        var counts = [Float](repeating: 0, count: capacity)
        var firstSeen: [Int] = []
        firstSeen.reserveCapacity(found.count)
        for case let slot? in found {
            // The table's slots are spread evenly by its own hashing: their low bits serve as they are.
            var at = Int(slot) & (capacity - 1)
            while slots[at] != -1, slots[at] != slot { at = (at + 1) & (capacity - 1) }
            if slots[at] == -1 {
                slots[at] = slot
                firstSeen.append(at)
            }
            counts[at] += 1
        }
        var scores = intercepts
        var norm: Float = 0
        let distinct = firstSeen.map { at -> (row: FeatureTable.Row, count: Float) in
            let row = table.row(at: slots[at])
            let value = counts[at] * Float(row.extra)
            norm += value * value
            return (row, counts[at])
        }
        if norm > 0 {
            // A feature said n times counts n times (its term count), as in training.
            let factor = weightScale / norm.squareRoot()
            let labelCount = labels.count
            scores.withUnsafeMutableBufferPointer { scores in
                entries.withUnsafeBufferPointer { entries in
                    dense.withUnsafeBufferPointer { dense in
                        for (row, count) in distinct {
                            let scaled = count * Float(row.extra) * factor
                            if row.isDense {
                                let first = Int(row.start) * labelCount
                                let weights = UnsafeBufferPointer(rebasing: dense[first..<(first + labelCount)])
                                for l in 0..<labelCount { scores[l] += scaled * Float(weights[l]) }
                            } else {
                                for entry in row.entries {
                                    scores[Int(entries[2 * entry])] += scaled * Float(Int8(bitPattern: entries[2 * entry + 1]))
                                }
                            }
                        }
                    }
                }
            }
        }
        var best = 0
        for i in scores.indices where scores[i] > scores[best] { best = i }
        // softmax(scores / T), computed from the top down so that nothing overflows; summed per Tender intent.
        var sum: Float = 0
        var mass = [Float](repeating: 0, count: Self.targets.count)
        let top = scores[best]
        let cutoff = top - 30 * temperature  // e^-30: nothing a Float sum of at most a few hundred terms can see
        for (i, score) in scores.enumerated() where score > cutoff {
            let e = Self.exp((score - top) / temperature)
            sum += e
            mass[targetOf[i]] += e
        }
        let inScope = 1 - mass[0] / sum
        guard inScope >= rejectBelow else {
            return Decision(intent: "out_of_scope", label: labels[best], score: inScope, inScope: inScope, moneyGoesEitherWay: false)
        }
        var chosen = 1
        for i in 1..<mass.count where mass[i] > mass[chosen] { chosen = i }
        let (send, transfer) = (mass[Self.sendIndex] / sum, mass[Self.transferIndex] / sum)
        let either = (chosen == Self.sendIndex || chosen == Self.transferIndex) && min(send, transfer) >= Self.sharedShare * (send + transfer)
        return Decision(
            intent: Self.targets[chosen], label: labels[best], score: either ? send + transfer : mass[chosen] / sum, inScope: inScope,
            moneyGoesEitherWay: either)
    }

    /// A feature with weights for at least 1/denseShare of the labels is kept as a dense row.
    static let denseShare = 4

    static let sendIndex = targets.firstIndex(of: "send_payment")!
    static let transferIndex = targets.firstIndex(of: "transfer_money")!

    /// A feature's inverse document frequency in training (the rarest's for a feature training never saw).
    func inverseFrequency(of hash: UInt64) -> Float {
        Float(table.row(hash)?.extra ?? maxIdf)
    }

    /// Whether the model has a weight for the normalised word itself (not only for its letters).
    func knows(_ word: String) -> Bool { table.row(Featurizer.FNV.start(0x77).adding(Array(word.utf8)[...]).value) != nil }

    /// e^x for x ≤ 0, without Foundation: range reduction by ln 2 and a Taylor series of 8 terms (relative error
    /// under 1e-6 on [0, ln 2)).
    static func exp(_ x: Float) -> Float {
        guard x > -80 else { return 0 }
        let ln2: Float = 0.693_147_18
        let k = (x / ln2).rounded(.down)
        let r = x - k * ln2
        var term: Float = 1
        var sum: Float = 1
        for n in 1...8 {
            term *= r / Float(n)
            sum += term
        }
        return sum * Float(sign: .plus, exponent: Int(k), significand: 1)
    }
}

/// Reads little-endian numbers from bytes, refusing to read past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func u8() -> UInt8? { take(1)?[0] }
    mutating func u16() -> UInt16? { take(2).map { UInt16($0[0]) | UInt16($0[1]) << 8 } }
    mutating func u32() -> UInt32? { take(4).map { $0.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } } }
    mutating func u64() -> UInt64? { take(8).map { $0.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } }
    mutating func f32() -> Float? { u32().map(Float.init(bitPattern:)) }
}
