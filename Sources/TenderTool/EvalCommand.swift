// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderCrypto
import TenderStore

/// `tender eval FILE.jsonl`: how well text understanding does on labelled
/// utterances: in-scope accuracy, out-of-scope false-accept rate, a
/// confusion table, per-slot precision, recall and F1 on lines with slot
/// spans, and the parse cost against one Ed25519 signature timed in the
/// same run.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score text understanding on a JSONL file of {\"text\", \"expected\", \"slots\"?} lines.",
        discussion: """
            expected is an intent, out_of_scope, alternatives joined by "|", or "any", "none" or "answer" (intent not scored). \
            Lines with "first": false are answers inside a dialog: only their slots are scored.
            """)

    @Argument(help: "The JSONL file.") var file: String

    @Flag(help: "Print one JSON object instead of the table.") var json = false

    @Flag(help: "Also print every line answered wrongly, and every line whose values differ from the file's.") var errors = false

    @Option(help: ArgumentHelp("A custom intent definition file to load (repeat for more): its intents compete with the built-in ones.", valueName: "FILE"))
    var intents: [String] = []

    struct Line {
        let text: String
        let expected: String
        let json: JSONValue
    }

    func run() throws {
        var lines: [Line] = []
        for (number, raw) in try TextFile.read(file).split(separator: "\n").enumerated() where !raw.isEmpty {
            let value = try JSONParser.parse(String(raw))
            guard let text = value["text"]?.stringValue, let expected = value["expected"]?.stringValue else {
                throw ValidationError("line \(number + 1) needs \"text\" and \"expected\" strings")
            }
            let scored = value["first"] != .bool(false) && !["none", "answer"].contains(expected)
            lines.append(Line(text: text, expected: scored ? expected : "any", json: value))
        }
        guard !lines.isEmpty else { throw ValidationError("\(file) has no lines") }
        var context = ParseContext(today: WallClock.today())
        context.customIntents = try IntentsCommand.matcher(intents)
        var predicted: [String] = []
        var parseTimes: [Double] = []
        var slots = SlotScore()
        for line in lines where line.json["slots"] != nil && line.json["expected"]?.stringValue != "out_of_scope" {
            slots.add(line.json, found: try TextParser.values(in: line.text, context: context))
        }
        // Each parse is followed by one signature, so both are timed under the same conditions; every time is the
        // best of two passes (the first pass also warms everything up).
        let signer = try Signer()
        var signTimes: [Double] = []
        for line in lines {
            let start = Stopwatch.now()
            let result = try TextParser.parse(line.text, context: context)
            parseTimes.append(Stopwatch.now() - start)
            predicted.append(result.intentName)
            signTimes.append(try signer.time())
        }
        for (index, line) in lines.enumerated() {
            let start = Stopwatch.now()
            _ = try TextParser.parse(line.text, context: context)
            parseTimes[index] = min(parseTimes[index], Stopwatch.now() - start)
            signTimes[index] = min(signTimes[index], try signer.time())
        }
        let report = EvalReport(
            expected: lines.map(\.expected), predicted: predicted, slots: slots, parseSeconds: parseTimes, signSeconds: signTimes)
        print(json ? JSONWriter.string(report.json) : report.table)
        if errors {
            for (line, answer) in zip(lines, predicted) where line.expected != "any" && !EvalReport.matches(line.expected, answer) {
                print("\(line.expected) → \(answer): \(line.text)")
            }
            for miss in slots.misses {
                let said = { (values: [(String, String)]) in values.map { "\($0.0) \"\($0.1)\"" }.joined(separator: ", ") }
                print("values: \(miss.text)" + (miss.missing.isEmpty ? "" : " | not found: " + said(miss.missing))
                    + (miss.extra.isEmpty ? "" : " | not in the file: " + said(miss.extra)))
            }
        }
    }

    /// Times one Ed25519 signature of a record-sized payload.
    struct Signer {
        let key: Ed25519PrivateKey
        let payload = [UInt8](repeating: 0x61, count: 600)

        init() throws { key = try Ed25519PrivateKey.generate() }

        func time() throws -> Double {
            let start = Stopwatch.now()
            _ = try key.sign(payload)
            return Stopwatch.now() - start
        }
    }
}
