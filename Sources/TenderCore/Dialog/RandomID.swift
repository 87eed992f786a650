// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Random identifiers of 32 hex digits, from the system's secure generator.
enum RandomID {
    /// 128 random bits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next()) + hex(generator.next())
    }

    /// A key that sorts after the ones this process made before: a 64-bit
    /// counter from a random start, then 64 random bits. The store's index of
    /// idempotency keys then takes each new key on the page of the last one,
    /// instead of a random page per payment.
    static func makeOrdered() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(counter.wrappingAdd(1, ordering: .relaxed).newValue) + hex(generator.next())
    }

    /// Starts low enough in a random range that it never wraps around.
    private static let counter: Atomic<UInt64> = {
        var generator = SystemRandomNumberGenerator()
        return Atomic(generator.next() >> 1)
    }()

    /// `word` as 16 hex digits, most significant first, so the text sorts as the number does.
    private static func hex(_ word: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(16)
        for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int((word >> UInt64(shift)) & 0xF)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
