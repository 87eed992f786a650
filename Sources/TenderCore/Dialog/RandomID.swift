/// Random identifiers: 128 bits from the system's secure generator, as 32 hex digits.
enum RandomID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for _ in 0..<2 {
            var word = generator.next()
            for _ in 0..<16 {
                text.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
