// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// The common-word list the labeller reads: its binary form, and what the
/// compiled list holds.
@Suite struct CommonWordsTests {
    private func blob(_ words: [String], count: Int? = nil) -> [UInt8] {
        var bytes = Array("TLX1".utf8)
        let n = UInt32(count ?? words.count)
        bytes += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
        for word in words { bytes += [UInt8(word.utf8.count)] + Array(word.utf8) }
        return bytes
    }

    @Test func readsItsBinaryForm() throws {
        let words = try #require(CommonWords(bytes: blob(["pay", "señor"])))
        #expect(words.contains(Array("pay".utf8)[...]))
        #expect(words.contains(Array("señor".utf8)[...]))
        #expect(!words.contains(Array("pa".utf8)[...]))
    }

    @Test func refusesDamagedBytes() {
        #expect(CommonWords(bytes: []) == nil)
        #expect(CommonWords(bytes: Array("TLX2".utf8) + [0, 0, 0, 0]) == nil)
        #expect(CommonWords(bytes: blob(["pay"], count: 2)) == nil)  // fewer words than counted
        #expect(CommonWords(bytes: blob(["pay"]) + [1]) == nil)  // bytes after the last word
        #expect(CommonWords(bytes: blob([""])) == nil)  // an empty word
        #expect(CommonWords(bytes: blob(["pay"], count: Int(UInt32.max))) == nil)
    }

    /// The compiled list holds the words requests are made of, and keeps given names off it
    /// (scripts/train-understanding-model.py), so that a name in lower case stands out.
    @Test func theCompiledListHoldsWordsNotNames() {
        let common = CommonWords.shared
        for word in ["pay", "send", "to", "my", "bill", "checking", "how", "much"] {
            #expect(common.contains(Array(word.utf8)[...]), "\(word)")
        }
        for name in ["mike", "john", "sarah", "priya", "oluwaseun"] {
            #expect(!common.contains(Array(name.utf8)[...]), "\(name)")
        }
    }
}
