// SPDX-License-Identifier: Apache-2.0
import PropertyBased
import Testing
@testable import TenderCore

/// Money: parsing and formatting round-trip exactly for every amount and currency exponent.
@Suite struct MoneyPropertyTests {
    /// Currencies of every exponent ISO 4217 uses: 0 (JPY), 2 (USD), 3 (KWD), 4 (CLF).
    static let currencies = ["JPY", "USD", "EUR", "KWD", "BHD", "CLF"]

    static let currency = Gen.element(of: currencies).compactMap { try? Currency(code: $0!) }

    @Test func theExponentsAreISO4217s() throws {
        #expect(try Currency(code: "JPY").exponent == 0)
        #expect(try Currency(code: "USD").exponent == 2)
        #expect(try Currency(code: "KWD").exponent == 3)
        #expect(try Currency(code: "CLF").exponent == 4)
    }

    /// Any count of minor units formats with exactly the currency's exponent and parses back to itself,
    /// up to the largest amount (10^18 - 1 minor units: beyond what a Double holds exactly).
    @Test func minorUnitsRoundTripThroughTheDecimalString() async {
        await propertyCheck(count: 2000, input: Self.currency, Gen.int64(in: 1...(Int64(1_000_000_000_000_000_000) - 1))) { currency, raw in
            let limit = Money.limit(for: currency)
            let minor = raw % limit == 0 ? 1 : raw % limit
            let money = try #require(try? Money(minorUnits: minor, currency: currency))
            let text = money.decimalString
            let fraction = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first
            #expect((fraction?.count ?? 0) == currency.exponent)
            #expect((try? Money(decimal: text, currency: currency)) == money)
        }
    }

    /// Any well-formed decimal text parses, and formatting pads it to the exponent without changing its value.
    @Test func decimalTextRoundTripsThroughMinorUnits() async {
        let digits = Gen.character(in: "0"..."9").string(of: 1...15)
        await propertyCheck(count: 2000, input: Self.currency, digits, digits) { currency, whole, fraction in
            let integer = whole.drop { $0 == "0" }.isEmpty ? "0" : String(whole.drop { $0 == "0" })
            let places = String(fraction.prefix(currency.exponent))
            let text = places.isEmpty ? integer : "\(integer).\(places)"
            guard integer.count <= Money.maximumMajorDigits(for: currency) else {
                #expect(throws: TenderError.self) { try Money(decimal: text, currency: currency) }
                return
            }
            guard let money = try? Money(decimal: text, currency: currency, allowZero: true) else {
                Issue.record("\(text) \(currency) did not parse")
                return
            }
            let padded = places + String(repeating: "0", count: currency.exponent - places.count)
            #expect(money.decimalString == (currency.exponent == 0 ? integer : "\(integer).\(padded)"))
            #expect((try? Money(decimal: money.decimalString, currency: currency, allowZero: true)) == money)
        }
    }

    /// More fraction digits than the exponent, signs, exponents and grouping are refused, never rounded.
    @Test func malformedAmountsAreRefusedNotRounded() async {
        let digits = Gen.character(in: "0"..."9").string(of: 1...6)
        await propertyCheck(count: 1000, input: Self.currency, digits, Gen.element(of: ["-", "+", "e2", ",", " ", "1e", "0x"])) { currency, number, junk in
            let extra = "1." + String(repeating: "5", count: currency.exponent + 1)
            #expect(throws: TenderError.self) { try Money(decimal: extra, currency: currency) }
            #expect(throws: TenderError.self) { try Money(decimal: number + junk!, currency: currency) }
            #expect(throws: TenderError.self) { try Money(decimal: junk! + number, currency: currency) }
        }
    }

    /// No floating point in the money code: the sources of Money and Currency name no Float or Double.
    @Test func theMoneySourcesUseNoFloatingPoint() throws {
        let folder = String(#filePath.split(separator: "/Tests/").first!) + "/Sources/TenderCore/Money/"
        for name in ["Money.swift", "Currency.swift", "Currency+ISO4217.swift"] {
            let text = try #require(SourceFile.read(folder + name))
            for word in ["Double", "Float", "CGFloat", "Decimal("] { #expect(!text.contains(word), "\(name) mentions \(word)") }
        }
    }
}
