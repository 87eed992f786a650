// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// The models' hash table: the batched look-up agrees with the one-by-one
/// look-up, and the classifier's dense rows score as its sparse weights do.
@Suite struct FeatureTableTests {
    @Test func batchedLookUpAgreesWithOneByOne() throws {
        // 40 hashes in a table of 128 slots; 1, 129, 257 and 385 start at the same slot, so three of them probe on.
        let hashes: [UInt64] = [1, 129, 257, 385] + (0..<36).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 | 2 }
        let counts = hashes.indices.map { UInt8($0 % 5 + 1) }
        let table = try #require(FeatureTable(hashes, counts: counts, extra: hashes.indices.map { UInt8($0) }))
        let unknown: [UInt64] = [513, 5, 3, 0xFFFF_FFFF_FFFF_FFFF]
        let asked = hashes + unknown + hashes.reversed() + [1, 1]
        let found = table.find(asked)
        #expect(found.count == asked.count)
        for (hash, slot) in zip(asked, found) {
            let row = table.row(hash)
            #expect((slot == nil) == (row == nil))
            if let slot { #expect(table.row(at: slot) == row) }
        }
        #expect(table.find([]).isEmpty)
        #expect(found[0] != found[1] && found[1] != found[2] && found[2] != found[3])
    }

    @Test func denseRowsAreNumberedApart() throws {
        let table = try #require(FeatureTable([10, 20, 30, 40, 50], counts: [1, 5, 2, 6, 3], denseFrom: 5))
        let rows = [10, 20, 30, 40, 50].map { table.row($0) }
        #expect(rows.map { $0?.isDense } == [false, true, false, true, false])
        // Sparse rows count only sparse weights; dense rows count dense rows.
        #expect(rows.map { $0?.start } == [0, 0, 1, 1, 3])
        #expect(rows.map { $0?.count } == [1, 5, 2, 6, 3])
        let sparseOnly = try #require(FeatureTable([10, 20], counts: [1, 200]))
        #expect(sparseOnly.row(20)?.isDense == false)
        #expect(sparseOnly.row(20)?.start == 1)
    }

    /// A classifier of twelve labels: feature 7 has one weight (kept sparse), feature 9 has weights for four labels (a
    /// quarter: kept dense). The probabilities are the softmax of the scores computed by hand.
    @Test func denseAndSparseWeightsScoreAsTrained() throws {
        let names = ["oos:a", "oos:b", "oos:c", "oos:d", "oos:e", "oos:f", "oos:g", "oos:h", "out_of_scope"]
            + ["pay_bill", "send_payment", "transfer_money"]
        let targets: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 2]
        let (weightScale, idfScale, threshold, temperature): (Float, Float, Float, Float) = (0.05, 0.1, 0.5, 1)
        var blob = Array("TIM2".utf8)
        func u32(_ v: UInt32) { blob += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func f32(_ v: Float) { u32(v.bitPattern) }
        blob += [UInt8(names.count), 0]
        f32(weightScale)
        f32(idfScale)
        u32(2)
        f32(threshold)
        f32(temperature)
        for (name, target) in zip(names, targets) { blob += [UInt8(name.utf8.count)] + Array(name.utf8) + [target] }
        for _ in names { f32(0) }
        for hash: UInt64 in [7, 9] { for k in 0..<8 { blob.append(UInt8(hash >> (8 * UInt64(k)) & 0xFF)) } }
        blob += [20, 40]  // idf
        blob += [1, 4]  // weights per feature
        blob += [9, 100]  // feature 7: pay_bill +100
        blob += [10, 127, 11, UInt8(bitPattern: -20), 0, 50, 3, UInt8(bitPattern: -1)]  // feature 9
        let model = try #require(IntentModel(bytes: blob))
        #expect(model.table.row(9)?.isDense == true && model.table.row(7)?.isDense == false)
        #expect(model.dense.count == names.count && model.entries.count == 2)

        func expected(_ raw: [Float]) -> [Float] {
            let top = raw.max()!
            let e = raw.map { IntentModel.exp($0 - top) }
            let sum = e.reduce(0, +)
            return e.map { $0 / sum }
        }
        // Feature 9 said twice, feature 7 once: counts 2 and 1, weighted by idf, normalised together.
        let norm = ((2 * 40 * 2 * 40 + 20 * 20) as Float).squareRoot()
        var raw = [Float](repeating: 0, count: names.count)
        for (label, weight) in [(10, 127), (11, -20), (0, 50), (3, -1)] { raw[label] += 2 * 40 * weightScale / norm * Float(weight) }
        raw[9] += 20 * weightScale / norm * 100
        let p = expected(raw)
        let decision = model.decide([9, 7, 9, 12345])
        #expect(decision.intent == "send_payment")
        #expect(abs(decision.score - p[10]) < 1e-5)
        #expect(abs(decision.inScope - (p[9] + p[10] + p[11])) < 1e-5)
        #expect(model.decide([7]).intent == "pay_bill")
        // Term counts are what matter, not how long the text is: 600 and 300 repeats (a long text, the repeat table
        // growing past its first size) score as 2 and 1, and unknown hashes among them change nothing.
        let long = model.decide(Array(repeating: 9, count: 600) + Array(repeating: 7, count: 300) + (1000..<1400).map(UInt64.init))
        #expect(long.intent == "send_payment" && abs(long.score - p[10]) < 1e-5 && abs(long.inScope - decision.inScope) < 1e-5)
        // No known feature: the intercepts alone (all zero), three in-scope labels of twelve.
        #expect(model.decide([]).intent == "out_of_scope" && abs(model.decide([]).inScope - 0.25) < 1e-6)
        #expect(model.decide([12345, 54321]) == model.decide([]))
    }
}
