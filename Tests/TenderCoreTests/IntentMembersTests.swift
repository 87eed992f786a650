// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// Which members an intent's JSON may carry, now checked as each member is read (no `Set` built at every parse:
/// issue 34, a dialog's init): the same members accepted and refused as before, with the same message.
@Suite struct IntentMembersTests {
    private func intent(_ text: String) throws -> Intent { try Intent(json: try JSONParser.parse(text)) }

    private func message(_ text: String) -> String? {
        do {
            _ = try intent(text)
            return nil
        } catch let error as TenderError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func everyParameterAndTheCommonMembersAreAccepted() throws {
        for schema in IntentSchema.all {
            // Each parameter alone (null: present but unset), then the members every intent may carry.
            for (parameter, _) in schema.parameters {
                _ = try intent(#"{"intent": "\#(schema.name)", "\#(parameter)": null}"#)
            }
            _ = try intent(#"{"intent": "\#(schema.name)", "idempotencyKey": "k-1", "device": "kitchen", "language": "en"}"#)
        }
    }

    @Test func anUnknownMemberIsRefusedByName() {
        #expect(message(#"{"intent": "send_payment", "colour": "red"}"#) == #"intent has an unknown member "colour""#)
        // A parameter of another intent is unknown to this one.
        #expect(message(#"{"intent": "send_payment", "billPayee": null}"#) == #"intent has an unknown member "billPayee""#)
    }

    @Test func whereTheMoneyGoesIsAskedOnlyOfTheIntentsThatAskIt() throws {
        #expect(try intent(#"{"intent": "send_payment", "askDestination": true}"#).asksDestination)
        #expect(try intent(#"{"intent": "transfer_money", "askDestination": true}"#).asksDestination)
        #expect(message(#"{"intent": "pay_bill", "askDestination": true}"#) == #"intent has an unknown member "askDestination""#)
    }

    @Test func aReaderAsksItsPredicateOnceAMember() throws {
        var asked: [String] = []
        let reader = try ObjectReader(try JSONParser.parse(#"{"a": 1, "b": 2}"#), name: "thing") { key in
            asked.append(key)
            return true
        }
        #expect(asked == ["a", "b"] && reader["b"] == .number("2"))
        #expect(throws: TenderError.invalidArgument(#"thing has an unknown member "b""#)) {
            try ObjectReader(try JSONParser.parse(#"{"a": 1, "b": 2}"#), name: "thing") { $0 == "a" }
        }
        // A list of allowed names reads as the set did.
        #expect(throws: TenderError.invalidArgument(#"thing has an unknown member "b""#)) {
            try ObjectReader(try JSONParser.parse(#"{"a": 1, "b": 2}"#), name: "thing", allowed: ["a"])
        }
    }
}
