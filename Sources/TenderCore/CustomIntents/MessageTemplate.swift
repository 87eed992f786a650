// SPDX-License-Identifier: Apache-2.0
/// A sentence in the person's words with `${name}` placeholders, as prompts, shortcut
/// titles and responses are written in a definition document.
public struct MessageTemplate: Equatable, Sendable {
    /// The template as written.
    public let text: String
    /// The names of its placeholders, in order of appearance.
    public let placeholders: [String]

    /// Parses `text`; an unclosed or empty `${}` is an error naming `field`.
    public init(_ text: String, field: String) throws(TenderError) {
        guard !text.isEmpty, text.count <= 500 else { throw .invalidArgument("\(field) must be a template of 1 to 500 characters") }
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw .invalidArgument("\(field) has a \"${\" that is never closed")
            }
            let name = String(rest[open.upperBound..<close])
            guard !name.isEmpty else { throw .invalidArgument("\(field) has an empty \"${}\"") }
            names.append(name)
            rest = rest[rest.index(after: close)...]
        }
        self.text = text
        placeholders = names
    }

    /// The text with every placeholder replaced by its value; a placeholder without a value stays as written.
    public func render(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            result += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close])
            result += values[name] ?? "${\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
