// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import TenderCore

/// Custom intents understood from their examples at load time: sentences written for this test
/// (not the examples, not any dev file) reach the custom intent with its values; built-in
/// requests and unrelated ones do not.
@Suite struct CustomIntentMatcherTests {
    static let context: ParseContext = {
        let repository = IntentDefinitionDocumentTests.repository + "/examples/intents/"
        var intents: [CustomIntentDefinition] = []
        for file in ["expense.json", "round-up.json"] {
            let text = (try? String(contentsOfFile: repository + file, encoding: .utf8)) ?? ""
            intents += (try? IntentDefinitionDocument(text: text, taken: Set(intents.map(\.name))))?.intents ?? []
        }
        return ParseContext(today: try! LocalDate(year: 2026, month: 11, day: 25), customIntents: CustomIntentMatcher(intents: intents))
    }()

    @Test func theExamplesAreLoaded() {
        #expect(Self.context.customIntents?.intents.map(\.name) == ["expense", "round_up_savings"])
    }

    @Test(arguments: [
        ("how much can I still spend on coffee", "coffee"), ("grocery expense", "grocery"),
        ("what is left of my dining out budget", "dining out"), ("how much can i still spend on gas", "gas"),
    ])
    func anExpenseIsUnderstoodWithItsName(text: String, expense: String) throws {
        let result = try TextParser.parse(text, context: Self.context)
        #expect(result.intentName == "expense")
        #expect(result.intent?["expense"] == .string(expense))
    }

    /// A budget request that names no expense is the expense intent without a value (the dialog asks which).
    @Test func aBudgetRequestNamingNoExpenseIsAnExpense() throws {
        let result = try TextParser.parse("how am I doing on my budget", context: Self.context)
        #expect(result.intentName == "expense")
        #expect(result.intent?["expense"] == nil)
    }

    /// "check my expenses" is CLINC150's spending_history, a payment search: no longer a custom example, so the
    /// expense intent does not take it (issue 31, the lead's decision).
    @Test func checkingExpensesIsNotTheCustomExpenseIntent() throws {
        #expect(try TextParser.parse("check my expenses", context: Self.context).intentName != "expense")
    }

    @Test func aRoundUpIsUnderstoodWithItsAmount() throws {
        let plain = try TextParser.parse("round up by 7 dollars", context: Self.context)
        #expect(plain.intentName == "round_up_savings")
        #expect(plain.intent?["amount"] == .object([("amount", .string("7.00")), ("currency", .string("USD"))]))
        #expect(plain.intent?["fromAccount"] == nil)  // no account said: the dialog asks
    }

    /// Text the built-in model gives to a built-in intent stays there, however alike a custom example is
    /// (issue 30: "round up my savings by $5" is a transfer to the built-in model, the old example's text).
    @Test(arguments: ["send $5 to John", "what's the weather like", "set a timer for ten minutes", "what is my checking balance",
                      "search for flights to boston", "round up my savings by $5", "how much is left in my vacation expense"])
    func otherRequestsStayWhereTheyWere(text: String) throws {
        let without = try TextParser.parse(text, context: ParseContext(today: Self.context.today))
        let with = try TextParser.parse(text, context: Self.context)
        #expect(with.intentName == without.intentName)
    }

    @Test func aValueIsReadBetweenTheExamplesNeighbours() throws {
        let example = try #require(Self.context.customIntents?.intents.first?.examples.first)
        let span = try #require(example.spans.first)
        let words = TextToken.tokenize("how much can i still spend on weekend fun").map(\.text)
        let range = try #require(CustomIntentMatcher.valueTokens(span, words: words))
        #expect(words[range] == ["weekend", "fun"])
        #expect(CustomIntentMatcher.valueTokens(span, words: ["hello"]) == nil)
    }
}
