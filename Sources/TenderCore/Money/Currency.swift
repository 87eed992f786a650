// SPDX-License-Identifier: Apache-2.0
/// An ISO 4217 currency: its alphabetic code and the exponent of its minor unit.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The three-letter code, e.g. "USD".
    public let code: String
    /// Digits after the decimal point: JPY 0, USD 2, BHD 3.
    public let exponent: Int

    /// The currency for an ISO 4217 code (upper case). Throws
    /// ``TenderError/unknownCurrency(_:)`` for anything else.
    public init(code: String) throws(TenderError) {
        guard let exponent = Currency.iso4217Exponents[code] else {
            throw .unknownCurrency("\"\(code.prefix(8))\" is not an ISO 4217 currency code")
        }
        self.code = code
        self.exponent = exponent
    }

    /// The US dollar, the default currency of amounts said without one.
    public static let usDollar = Currency(known: "USD", exponent: 2)

    private init(known code: String, exponent: Int) {
        self.code = code
        self.exponent = exponent
    }

    public var description: String { code }
}
