// SPDX-License-Identifier: Apache-2.0
/// Which currencies payments may use, and the smallest and largest payment in each.
public struct PaymentLimits: Sendable, Equatable {
    /// The bounds of one currency, both inclusive.
    public struct Bounds: Sendable, Equatable {
        public let minimum: Money
        public let maximum: Money
    }

    private let bounds: [String: Bounds]

    /// USD, EUR, GBP, CAD, AUD, CHF from 1.00 to 10000.00; JPY 100 to 1000000; BHD 0.500 to 4000.000.
    public static let standard: PaymentLimits = {
        var table: [String: Bounds] = [:]
        func add(_ code: String, _ minimum: String, _ maximum: String) {
            // The literals below are valid; a failure here would be a defect caught by the tests.
            guard let currency = try? Currency(code: code), let min = try? Money(decimal: minimum, currency: currency),
                let max = try? Money(decimal: maximum, currency: currency)
            else { return }
            table[code] = Bounds(minimum: min, maximum: max)
        }
        for code in ["USD", "EUR", "GBP", "CAD", "AUD", "CHF"] { add(code, "1.00", "10000.00") }
        add("JPY", "100", "1000000")
        add("BHD", "0.500", "4000.000")
        return PaymentLimits(bounds: table)
    }()

    init(bounds: [String: Bounds]) { self.bounds = bounds }

    /// Limits from the configuration form `{"USD": {"minimum": "1.00", "maximum": "10000.00"}}`.
    public init(json: JSONValue) throws(TenderError) {
        guard let members = json.objectMembers, !members.isEmpty else {
            throw .invalidArgument("limits must be a non-empty object of currencies")
        }
        var table: [String: Bounds] = [:]
        for member in members {
            let currency = try Currency(code: member.key)
            let field = "limits.\(member.key)"
            let reader = try ObjectReader(member.value, name: field, allowed: ["minimum", "maximum"])
            let minimum = try Money(decimal: try reader.requiredString("minimum", maxLength: 40), currency: currency)
            let maximum = try Money(decimal: try reader.requiredString("maximum", maxLength: 40), currency: currency)
            guard minimum <= maximum else { throw .invalidArgument("\(field).minimum is above its maximum") }
            table[member.key] = Bounds(minimum: minimum, maximum: maximum)
        }
        self.init(bounds: table)
    }

    /// The bounds for `currency`, or nil when payments may not use it.
    public func bounds(for currency: Currency) -> Bounds? { bounds[currency.code] }
}
