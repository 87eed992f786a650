// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct MoneyTests {
    @Test(arguments: [
        ("USD", "50", 5000, "50.00"), ("USD", "1250.5", 125_050, "1250.50"), ("USD", "0.01", 1, "0.01"),
        ("JPY", "5000", 5000, "5000"), ("BHD", "1.25", 1250, "1.250"), ("BHD", "0.001", 1, "0.001"),
        ("USD", "0.10", 10, "0.10"), ("CLF", "1.2345", 12345, "1.2345"),
    ])
    func parsesAndFormatsWithTheCurrencyExponent(code: String, text: String, minor: Int64, formatted: String) throws {
        let money = try Money(decimal: text, currency: try Currency(code: code))
        #expect(money.minorUnits == minor)
        #expect(money.decimalString == formatted)
    }

    @Test(arguments: ["-5", "0", "0.00", "1.234", "1e5", "1,000", "", ".5", "5.", "1.2.3", " 5", "abc", "+5",
                      "1000000000000000", String(repeating: "9", count: 60),
                      // leading zeros beyond one (issue 20.4)
                      "007.10", "050", "00.50", "00000000000000000000000000000000000050"])
    func refusesBadAmounts(text: String) throws {
        let usd = try Currency(code: "USD")
        #expect(throws: TenderError.self) { try Money(decimal: text, currency: usd) }
    }

    @Test func refusesAmountsThatWouldOverflowInFourDecimalCurrencies() throws {
        let clf = try Currency(code: "CLF")
        #expect(throws: TenderError.self) { try Money(decimal: "999999999999999.9999", currency: clf) }
        #expect(try Money(decimal: "99999999999999.9999", currency: clf).minorUnits == 999_999_999_999_999_999)
    }

    @Test func zeroOnlyWhenAllowed() throws {
        let usd = try Currency(code: "USD")
        #expect(try Money(decimal: "0.00", currency: usd, allowZero: true).minorUnits == 0)
    }

    @Test func currenciesFollowISO4217() throws {
        #expect(try Currency(code: "JPY").exponent == 0)
        #expect(try Currency(code: "USD").exponent == 2)
        #expect(try Currency(code: "KWD").exponent == 3)
        #expect(throws: TenderError.unknownCurrency("\"XYZ\" is not an ISO 4217 currency code")) { try Currency(code: "XYZ") }
        #expect(throws: TenderError.self) { try Currency(code: "usd") }
    }

    @Test func jsonAmountsMustBeStrings() throws {
        let json = try JSONParser.parse(#"{"amount": 50, "currency": "USD"}"#)
        #expect(throws: TenderError.self) { try Money(json: json, field: "x") }
        let good = try Money(json: try JSONParser.parse(#"{"amount": "50", "currency": "USD"}"#), field: "x")
        #expect(JSONWriter.string(good.json) == #"{"amount":"50.00","currency":"USD"}"#)
    }
}
