// SPDX-License-Identifier: Apache-2.0
/// An amount of money: an integer count of minor units of one currency.
/// Never a floating-point number.
public struct Money: Hashable, Sendable {
    /// Amounts stay below 10^15 major units, and below 10^18 minor units so
    /// every amount fits an Int64 (10^14 major units for CLF and UYW).
    public static func maximumMajorDigits(for currency: Currency) -> Int { min(15, 18 - currency.exponent) }

    /// Count of minor units (cents for USD, yen for JPY, fils for BHD).
    public let minorUnits: Int64
    public let currency: Currency

    /// Money from a count of minor units. Throws ``TenderError/invalidAmount(_:)``
    /// when negative or beyond the largest accepted amount.
    public init(minorUnits: Int64, currency: Currency) throws(TenderError) {
        guard minorUnits >= 0, minorUnits < Money.limit(for: currency) else {
            throw .invalidAmount("amount out of range")
        }
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// No money of `currency`.
    public static func zero(_ currency: Currency) -> Money { Money(unchecked: 0, currency) }

    private init(unchecked minorUnits: Int64, _ currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Parses a positive decimal string in major units ("50", "1250.50",
    /// "0.125"). Refuses signs, exponents, grouping, more fraction digits than
    /// the currency allows, zero (unless `allowZero`), and anything of 10^15
    /// major units or more.
    public init(decimal text: String, currency: Currency, allowZero: Bool = false) throws(TenderError) {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count <= 40 else { throw .invalidAmount("amount must be a decimal string like \"50.00\"") }
        var integerDigits: [UInt8] = []
        var fractionDigits: [UInt8] = []
        var seenPoint = false
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { throw .invalidAmount("amount has more than one decimal point") }
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if seenPoint { fractionDigits.append(byte - UInt8(ascii: "0")) } else { integerDigits.append(byte - UInt8(ascii: "0")) }
            } else if byte == UInt8(ascii: "-") {
                throw .invalidAmount("amount must not be negative")
            } else {
                throw .invalidAmount("amount must be a decimal string like \"50.00\"")
            }
        }
        guard !integerDigits.isEmpty, !(seenPoint && fractionDigits.isEmpty) else {
            throw .invalidAmount("amount must be a decimal string like \"50.00\"")
        }
        guard fractionDigits.count <= currency.exponent else {
            throw .invalidAmount("\(currency.code) amounts have at most \(currency.exponent) decimal places")
        }
        guard integerDigits.count == 1 || integerDigits.first != 0 else {
            throw .invalidAmount("amount must not have leading zeros (\"0.50\" is fine, \"050\" is not)")
        }
        guard integerDigits.count <= Money.maximumMajorDigits(for: currency) else { throw .invalidAmount("amount is absurdly large") }
        var minor: Int64 = 0
        for digit in integerDigits { minor = minor * 10 + Int64(digit) }
        for position in 0..<currency.exponent {
            minor = minor * 10 + Int64(position < fractionDigits.count ? fractionDigits[position] : 0)
        }
        guard minor > 0 || allowZero else { throw .invalidAmount("amount must be greater than zero") }
        try self.init(minorUnits: minor, currency: currency)
    }

    /// The exclusive upper bound in minor units; at most 10^18, so it fits an Int64.
    static func limit(for currency: Currency) -> Int64 {
        var value: Int64 = 1
        for _ in 0..<(maximumMajorDigits(for: currency) + currency.exponent) { value *= 10 }
        return value
    }

    /// The amount in major units with exactly the currency's exponent: "50.00", "5000", "1.250".
    public var decimalString: String {
        guard currency.exponent > 0 else { return String(minorUnits) }
        var divisor: Int64 = 1
        for _ in 0..<currency.exponent { divisor *= 10 }
        let fraction = String(minorUnits % divisor)
        let padding = String(repeating: "0", count: max(0, currency.exponent - fraction.count))
        return "\(minorUnits / divisor).\(padding)\(fraction)"
    }

    /// `{"amount": "50.00", "currency": "USD"}`.
    public var json: JSONValue {
        .object([("amount", .string(decimalString)), ("currency", .string(currency.code))])
    }

    /// Money from its JSON form `{"amount": "50", "currency": "USD"}`.
    public init(json: JSONValue, field: String, allowZero: Bool = false) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["amount", "currency"])
        let code = try reader.requiredString("currency")
        let currency = try Currency(code: code)
        guard let amountValue = reader["amount"] else { throw .invalidArgument("\(field).amount is required") }
        guard let text = amountValue.stringValue else {
            throw .invalidAmount("\(field).amount must be a decimal string like \"50.00\", not a JSON number")
        }
        try self.init(decimal: text, currency: currency, allowZero: allowZero)
    }
}

extension Money: Comparable {
    /// Orders amounts of the same currency; amounts of different currencies compare by code first.
    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.currency.code == rhs.currency.code ? lhs.minorUnits < rhs.minorUnits : lhs.currency.code < rhs.currency.code
    }
}
