// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import TenderCore

/// Custom intent definition documents: the shipped examples load, and every definition
/// that cannot work is refused at load with a message naming the intent, the field and why.
@Suite struct IntentDefinitionDocumentTests {
    /// A small valid intent; each refusal case below changes one thing in it.
    static let valid = """
        {"name": "budget", "category": "information",
         "parameters": [{"name": "budget", "type": "string", "required": true, "prompts": {"needsValue": "Which budget?"}}],
         "outputs": {"left": "currencyAmount"},
         "shortcutTypes": [{"parameters": ["budget"], "title": "What's left in ${budget}"}],
         "responses": {"success": "${left} left in ${budget}."},
         "examples": [{"text": "how much is left in food", "spans": [{"parameter": "budget", "start": 20, "end": 24}]}]}
        """

    static func document(_ intent: String) throws(TenderError) -> IntentDefinitionDocument {
        try IntentDefinitionDocument(text: #"{"intents": ["# + intent + "]}")
    }

    static func refusal(_ intent: String) -> String? {
        do {
            _ = try document(intent)
            return nil
        } catch {
            return error.message
        }
    }

    static var repository: String {
        let file = "\(#filePath)"
        return String(file[..<(file.firstRange(of: "/Tests/")?.lowerBound ?? file.endIndex)])
    }

    @Test func theShippedExamplesLoad() throws {
        let expense = try IntentDefinitionDocument(text: try String(contentsOfFile: Self.repository + "/examples/intents/expense.json"))
        let intent = try #require(expense.intents.first)
        #expect(intent.name == "expense" && intent.category == .information && !intent.recorded && intent.restriction == .never)
        #expect(intent.parameter("expense")?.values == .host)
        let example = try #require(intent.examples.first)
        #expect(example.words(of: try #require(example.spans.first)) == "vacation")

        let roundUp = try IntentDefinitionDocument(text: try String(contentsOfFile: Self.repository + "/examples/intents/round-up.json"))
        let move = try #require(roundUp.intents.first)
        #expect(move.category == .moneyMovement && move.recorded && move.restriction == .always)
        let spans = move.examples.flatMap { example in example.spans.map { example.words(of: $0) } }
        #expect(spans == ["$5", "10 dollars"])
    }

    @Test func theBaseCaseIsValid() throws {
        let intent = try #require(try Self.document(Self.valid).intents.first)
        #expect(intent.responses.first?.template.render(["left": "$12.00", "budget": "food"]) == "$12.00 left in food.")
    }

    @Test(arguments: [
        // unknown types
        (#""type": "string""#, #""type": "money""#, #"intent "budget", parameters[0] "budget".type: unknown type "money""#),
        (#""left": "currencyAmount""#, #""left": "cash""#, #"intent "budget".outputs.left: unknown type"#),
        (#""category": "information""#, #""category": "chat""#, #"intent "budget".category: unknown category "chat""#),
        // a required parameter no prompt can ask for
        (#""prompts": {"needsValue": "Which budget?"}"#, #""prompts": {}"#,
         #"parameters[0] "budget" is required but has no prompts.needsValue: nothing could ask the person for it"#),
        // templates that name unknown parameters
        (#""${left} left in ${budget}.""#, #""${left} left in ${pot}.""#,
         #"intent "budget".responses.success names "${pot}", which is neither a parameter nor an output"#),
        (#""What's left in ${budget}""#, #""What's left in ${pot}""#,
         #"intent "budget".shortcutTypes[0].title names "${pot}", which this shortcut type does not fill"#),
        (#""needsValue": "Which budget?""#, #""needsValue": "Which of ${pots}?""#,
         #"prompts.needsValue names "${pots}"; a prompt may name only its parameter"#),
        (#""${left} left in ${budget}.""#, #""${left left""#, #"intent "budget".responses.success has a "${" that is never closed"#),
        // the seed's trap: no shortcut type covering all parameters
        (#""parameters": ["budget"], "title": "What's left in ${budget}""#, #""parameters": [], "title": "What's left""#,
         #"intent "budget".shortcutTypes: no shortcut type uses every parameter (budget), so a shortcut could never reach the handler"#),
        // an enum with no cases
        (#""type": "string""#, #""type": "enum""#, #"intent "budget", parameters[0] "budget" is an enum with no cases"#),
        // what the handler and examples need
        (#""responses": {"success": "${left} left in ${budget}."}"#, #""responses": {"failure": "no"}"#,
         #"intent "budget".responses has no "success" template"#),
        (#""spans": [{"parameter": "budget""#, #""spans": [{"parameter": "pot""#,
         #"intent "budget".examples[0] marks "pot", which is not a parameter"#),
        (#""start": 20, "end": 24"#, #""start": 20, "end": 40"#, #"examples[0].spans[0] must have 0 <= start < end <= 24"#),
        (#""category": "information""#, #""category": "moneyMovement""#,
         #"intent "budget" moves money but has no required, single currencyAmount parameter"#),
        (#""category": "information""#, #""category": "information", "restricted": {"aboveAmount": {"USD": "5.00"}}"#,
         #"intent "budget".restricted.aboveAmount needs a currencyAmount parameter"#),
        (#""category": "information""#, #""category": "information", "colour": "red""#, #"intents[0] has an unknown member "colour""#),
    ])
    func aDefinitionThatCannotWorkIsRefusedWithItsReason(original: String, replacement: String, message: String) throws {
        #expect(Self.valid.contains(original))
        let refused = try #require(Self.refusal(Self.valid.replacing(original, with: replacement)))
        #expect(refused.contains(message), "\(refused)")
    }

    /// A parameter named like a member of the signed record would write that member twice (a record no verifier
    /// parses), or, named "v", stand where the record format is: refused, with every other name of the record.
    @Test(arguments: ["v", "account", "response", "ledger", "idempotencyKey", "status", "id", "type", "settled"])
    func aParameterMayNotTakeARecordMembersName(name: String) throws {
        let renamed = Self.valid.replacing(#""name": "budget", "type""#, with: #""name": "\#(name)", "type""#)
            .replacing("${budget}", with: "${\(name)}").replacing(#"["budget"]"#, with: #"["\#(name)"]"#)
            .replacing(#""parameter": "budget""#, with: #""parameter": "\#(name)""#)
        let refused = try #require(Self.refusal(renamed))
        #expect(refused.contains(#"parameters[0].name "\#(name)" is a member of the intent's signed record"#), "\(refused)")
        #expect(Self.refusal(Self.valid.replacing(#""name": "budget", "type""#, with: #""name": "budgetv", "type""#)
            .replacing("${budget}", with: "${budgetv}").replacing(#"["budget"]"#, with: #"["budgetv"]"#)
            .replacing(#""parameter": "budget""#, with: #""parameter": "budgetv""#)) == nil)
    }

    @Test func namesMustBeNew() throws {
        let builtIn = Self.valid.replacing(#""name": "budget", "category""#, with: #""name": "send_payment", "category""#)
        #expect(Self.refusal(builtIn)?.contains(#"intents[0].name "send_payment" is a built-in intent"#) == true)
        let twice = try? IntentDefinitionDocument(text: #"{"intents": ["# + Self.valid + "," + Self.valid + "]}")
        #expect(twice == nil)
        do {
            _ = try IntentDefinitionDocument(text: #"{"intents": ["# + Self.valid + "]}", taken: ["budget"])
            Issue.record("a name taken by an earlier document was accepted")
        } catch {
            #expect(error.message.contains(#"intents[0].name "budget" is already defined"#))
        }
        let parameterTwice = Self.valid.replacing(
            #""parameters": [{"name": "budget""#,
            with: #""parameters": [{"name": "budget", "type": "string"}, {"name": "budget""#)
        #expect(Self.refusal(parameterTwice)?.contains(#"parameters[1]: the name "budget" is used twice"#) == true)
    }

    @Test func emptyOrMalformedDocumentsAreRefused() {
        for text in [#"{}"#, #"{"intents": []}"#, #"{"intents": 3}"#, "[]", #"{"intents": [{}]}"#] {
            #expect(throws: TenderError.self) { try IntentDefinitionDocument(text: text) }
        }
    }

    @Test func templatesRenderTheirValuesAndKeepUnknownPlaceholders() throws {
        let template = try MessageTemplate("Send ${amount} to ${payee}? ${x}", field: "t")
        #expect(template.placeholders == ["amount", "payee", "x"])
        #expect(template.render(["amount": "$5.00", "payee": "Tim"]) == "Send $5.00 to Tim? ${x}")
        #expect(throws: TenderError.self) { try MessageTemplate("a ${} b", field: "t") }
    }
}
