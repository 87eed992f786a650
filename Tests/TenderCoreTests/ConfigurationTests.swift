// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct ConfigurationTests {
    @Test func defaultsAndCustomLimits() throws {
        let plain = try EngineConfiguration(json: try JSONParser.parse(#"{"home":"/tmp/x"}"#))
        #expect(plain.home == "/tmp/x")
        #expect(plain.limits.bounds(for: try Currency(code: "JPY"))?.minimum.minorUnits == 100)
        #expect(plain.limits.bounds(for: try Currency(code: "BHD"))?.maximum.decimalString == "4000.000")
        let custom = try EngineConfiguration(json: try JSONParser.parse(
            #"{"home":"/h","limits":{"USD":{"minimum":"0.01","maximum":"50"}}}"#))
        #expect(custom.limits.bounds(for: try Currency(code: "USD"))?.maximum.minorUnits == 5000)
        #expect(custom.limits.bounds(for: try Currency(code: "EUR")) == nil)
    }

    @Test(arguments: [
        #"{}"#, #"{"home":""}"#, #"{"home":5}"#, #"{"home":"/h","limits":{}}"#,
        #"{"home":"/h","limits":{"XYZ":{"minimum":"1","maximum":"2"}}}"#,
        #"{"home":"/h","limits":{"USD":{"minimum":"3","maximum":"2"}}}"#,
        #"{"home":"/h","other":1}"#,
    ])
    func badConfigurationsAreRefused(json: String) {
        #expect(throws: TenderError.self) { try EngineConfiguration(json: try JSONParser.parse(json)) }
    }

    @Test(arguments: ["1e999", "0", "21", "-1", "2.5", "100000000000000000000"])
    func badMaxPromptsNameTheRange(value: String) {
        #expect {
            try EngineConfiguration(json: try JSONParser.parse(#"{"home":"/h","dialog":{"maxPrompts":\#(value)}}"#))
        } throws: { error in
            (error as? TenderError)?.message == "dialog.maxPrompts must be a whole number from 1 to 20"
        }
    }
}
