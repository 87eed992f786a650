// SPDX-License-Identifier: Apache-2.0
/// A sentence in the person's words with `${name}` placeholders, as prompts, shortcut
/// titles and responses are written in a definition document: one string, or one per
/// language (`{"en": "Which expense?", "es": "¿Qué gasto?"}`).
public struct MessageTemplate: Equatable, Sendable {
    /// The template as written (of a template per language: the English one, else the first).
    public let text: String
    /// The names of its placeholders, in order of appearance (of every language's text).
    public let placeholders: [String]
    /// The template in each language it was written in, by language code ("es"); empty for a plain string.
    public let languages: [String: String]

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
        languages = [:]
    }

    /// Parses a template: a string, or an object of language codes ("en", "es": two or three
    /// lowercase letters) and their templates, at least one. Errors name `field`.
    public init(json: JSONValue, field: String) throws(TenderError) {
        if let text = json.stringValue {
            try self.init(text, field: field)
            return
        }
        guard let members = json.objectMembers, !members.isEmpty, members.count <= 20 else {
            throw .invalidArgument("\(field) must be a template string, or an object of language codes and template strings")
        }
        var texts: [String: String] = [:]
        var names: [String] = []
        for member in members {
            let code = member.key
            guard (2...3).contains(code.utf8.count), code.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), let text = member.value.stringValue else {
                throw .invalidArgument("\(field): each language is a code of two or three lowercase letters (\"en\", \"es\") with a template string")
            }
            let template = try MessageTemplate(text, field: "\(field).\(code)")
            texts[code] = text
            names += template.placeholders.filter { !names.contains($0) }
        }
        self.init(text: texts["en"] ?? members[0].value.stringValue ?? "", placeholders: names, languages: texts)
    }

    private init(text: String, placeholders: [String], languages: [String: String]) {
        self.text = text
        self.placeholders = placeholders
        self.languages = languages
    }

    /// The template rendered in `language` ("es") when written in it, else in its default text.
    public func render(_ values: [String: String], language: String) -> String {
        guard let text = languages[language], text != self.text else { return render(values) }
        return MessageTemplate(text: text, placeholders: [], languages: [:]).render(values)
    }

    /// Whether the template was written in `language` (a plain string counts as English).
    public func speaks(_ language: String) -> Bool { languages.isEmpty ? language == "en" : languages[language] != nil }

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
