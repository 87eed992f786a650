// SPDX-License-Identifier: Apache-2.0
/// A sentence a person might say for a custom intent, with the parameters' values marked,
/// from which understanding learns the intent at load time.
public struct CustomIntentExample: Equatable, Sendable {
    /// A marked value: the parameter and its characters `start..<end` in ``text`` (Unicode scalars),
    /// with the words just before and after it (lower case, nil at either end of the sentence).
    public struct Span: Equatable, Sendable {
        public let parameter: String
        public let start: Int
        public let end: Int
        public let wordBefore: String?
        public let wordAfter: String?
    }

    public let text: String
    public let spans: [Span]

    /// Reads `"text"` alone or `{"text", "spans": [{"parameter", "start", "end"}]}`; spans must lie inside the text.
    init(json: JSONValue, field: String) throws(TenderError) {
        if let text = json.stringValue {
            guard !text.isEmpty, text.count <= 500 else { throw .invalidArgument("\(field) must be a sentence of 1 to 500 characters") }
            self.text = text
            spans = []
            return
        }
        let reader = try ObjectReader(json, name: field, allowed: ["text", "spans"])
        text = try reader.requiredString("text", maxLength: 500)
        let length = text.unicodeScalars.count
        let tokens = TextToken.tokenize(text)
        var spans: [Span] = []
        for (i, item) in (try reader.array("spans") ?? []).enumerated() {
            let span = try ObjectReader(item, name: "\(field).spans[\(i)]", allowed: ["parameter", "start", "end"])
            let parameter = try span.requiredString("parameter", maxLength: 64)
            guard let start = try span.count("start"), let end = try span.count("end"), start < end, end <= length else {
                throw .invalidArgument("\(field).spans[\(i)] must have 0 <= start < end <= \(length), the sentence's length")
            }
            spans.append(Span(
                parameter: parameter, start: Int(start), end: Int(end),
                wordBefore: tokens.last { $0.span.upperBound <= Int(start) }?.text, wordAfter: tokens.first { $0.span.lowerBound >= Int(end) }?.text))
        }
        self.spans = spans
    }

    /// The words a span marks.
    public func words(of span: Span) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[span.start..<span.end])
        return String(result)
    }
}
