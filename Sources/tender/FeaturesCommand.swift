import ArgumentParser
import TenderCore

/// `tender features FILE.jsonl`: the intent model's features of every line's
/// `text`, for the training script (scripts/train-intent-model.py); one JSON
/// object per line with the line's other members kept.
struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features", abstract: "Print the intent model's feature hashes of each line of a JSONL file (for training).",
        shouldDisplay: false)

    @Argument(help: "A JSONL file whose lines have a \"text\".") var file: String

    func run() throws {
        for line in try TextFile.read(file).split(separator: "\n") where !line.isEmpty {
            let json = try JSONParser.parse(String(line))
            guard let text = json["text"]?.stringValue, case let .object(members) = json else { throw ValidationError("a line has no text") }
            let hashes = Featurizer.features(text).map { JSONValue.number(String($0)) }
            print(JSONWriter.string(.object(members + [("features", .array(hashes))])))
        }
    }
}
