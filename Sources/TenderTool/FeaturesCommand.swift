// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore

/// `tender features FILE.jsonl`: the models' features of every line's `text`,
/// for the training script (scripts/train-understanding-model.py), computed
/// by the library's own code; one JSON object per line with the line's other
/// members kept, plus `features` (the intent model's), `spans` (each token's
/// [start, end) in Unicode scalars) and `tokens` (each token's labeller features).
struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Print the models' feature hashes of each line of a JSONL file (for make model's training script).")

    @Argument(help: "A JSONL file whose lines have a \"text\".") var file: String

    @Flag(help: "Print the models' outputs instead: the best label, the intent decided and each token's label.") var predict = false

    func run() throws {
        let today = try LocalDate(year: 2026, month: 1, day: 15)
        for line in try TextFile.read(file).split(separator: "\n") where !line.isEmpty {
            let json = try JSONParser.parse(String(line))
            guard let text = json["text"]?.stringValue, case let .object(members) = json else { throw ValidationError("a line has no text") }
            if predict {
                let out = try TextParser.modelOutputs(text, context: ParseContext(today: today))
                print(JSONWriter.string(.object([
                    ("text", .string(text)), ("label", .string(out.label)), ("intent", .string(out.intent)),
                    ("tags", .array(out.tags.map(JSONValue.string))),
                ])))
                continue
            }
            let found = TagFeaturizer.training(text, today: today)
            func numbers(_ hashes: [UInt64]) -> JSONValue { .array(hashes.map { .number(String($0)) }) }
            print(JSONWriter.string(.object(members + [
                ("features", numbers(found.intent)),
                ("spans", .array(found.spans.map { .array([.number(String($0.lowerBound)), .number(String($0.upperBound))]) })),
                ("tokens", .array(found.tokens.map(numbers))),
            ])))
        }
    }
}
