// SPDX-License-Identifier: Apache-2.0
/// The recogniser's n-best list as the host gives it:
/// `{"alternatives": [{"text": "...", "score": 0.92}, ...]}`, best first.
public struct Alternatives: Sendable {
    public let items: [(text: String, score: Double?)]

    /// Parses the list: 1 to ``TextParser/maxAlternatives`` texts, each score a number from 0 to 1 when given.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "alternatives", allowed: ["alternatives"])
        guard let list = try reader.array("alternatives"), !list.isEmpty, list.count <= TextParser.maxAlternatives else {
            throw .invalidArgument("alternatives must list 1 to \(TextParser.maxAlternatives) texts")
        }
        var items: [(text: String, score: Double?)] = []
        for (i, item) in list.enumerated() {
            let entry = try ObjectReader(item, name: "alternatives[\(i)]", allowed: ["text", "score"])
            let text = try entry.requiredString("text", maxLength: TextParser.maxTextLength)
            var score: Double?
            if let value = entry["score"] {
                guard case let .number(number) = value, let parsed = Double(number), parsed >= 0, parsed <= 1 else {
                    throw .invalidArgument("alternatives[\(i)].score must be a number from 0 to 1")
                }
                score = parsed
            }
            items.append((text, score))
        }
        self.items = items
    }
}
