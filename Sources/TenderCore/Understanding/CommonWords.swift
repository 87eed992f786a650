// SPDX-License-Identifier: Apache-2.0
internal import CTenderModel

/// The common words of the training text (scripts/train-understanding-model.py):
/// what tells the labeller that "mike" in "send 50 to mike" is a name typed in
/// lower case, while "bill" in "pay my bill" is a word. Words are kept as
/// 64-bit FNV-1a hashes of their lower-cased UTF-8. Immutable and thread-safe.
struct CommonWords: Sendable {
    private let hashes: Set<UInt64>

    /// The list compiled into the library; empty only if its bytes are damaged.
    static let shared: CommonWords = {
        CommonWords(bytes: [UInt8](UnsafeBufferPointer(start: tdr_lexicon_bytes(), count: tdr_lexicon_size))) ?? CommonWords(words: [])
    }()

    /// Reads the binary form: "TLX1", a 32-bit little-endian count, then each word as a length byte and its bytes.
    /// Nil when it is malformed.
    init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.take(4) == Array("TLX1".utf8), let count = reader.u32().map(Int.init), count <= bytes.count else { return nil }
        var words: [[UInt8]] = []
        words.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = reader.u8(), length > 0, let word = reader.take(Int(length)) else { return nil }
            words.append(word)
        }
        guard reader.atEnd else { return nil }
        self.init(words: words)
    }

    init(words: [[UInt8]]) {
        hashes = Set(words.map { Self.hash($0[...]) })
    }

    /// Whether `word` (lower-cased, as ``TextToken`` keeps it) is a common word.
    func contains(_ word: ArraySlice<UInt8>) -> Bool { hashes.contains(Self.hash(word)) }

    private static func hash(_ word: ArraySlice<UInt8>) -> UInt64 { Featurizer.FNV.start(0x7C).adding(word).value }
}
