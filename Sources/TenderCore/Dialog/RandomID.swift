/// Random identifiers: 128 bits from the system's secure generator, as 32 hex digits.
enum RandomID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
