// SPDX-License-Identifier: Apache-2.0
/// Finding a phrase of lower-case words in a sequence of words.
enum Phrase {
    /// Whether `phrase` stands in `words` starting at `index`.
    static func starts<Words: RandomAccessCollection>(_ phrase: [String], in words: Words, at index: Int) -> Bool
    where Words.Element == String, Words.Index == Int {
        index >= 0 && index + phrase.count <= words.count && phrase.indices.allSatisfy { words[index + $0] == phrase[$0] }
    }

    /// Whether `phrase` stands anywhere in `words`.
    static func contains(_ phrase: [String], in words: [String]) -> Bool {
        words.indices.contains { starts(phrase, in: words, at: $0) }
    }
}
