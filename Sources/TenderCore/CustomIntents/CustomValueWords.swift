// SPDX-License-Identifier: Apache-2.0
/// A custom intent's values in the person's words (in English unless told), for the definition's templates:
/// "$5", "Checking", "John Baily", "2026-11-25 to 2026-11-30", "yes", "a, b and c".
enum CustomValueWords {
    /// The words for `value`, a parameter's or an output's JSON of `type`.
    static func words(_ value: JSONValue, type: CustomParameterType, language: SpeechLanguage = .english) -> String {
        if case let .array(items) = value { return language.sentences.list(items.map { words($0, type: type, language: language) }, or: false) }
        switch (type, value) {
        case (.currencyAmount, _):
            return (try? Money(json: value, field: "value")).map { SpokenFormat.money($0, language) } ?? JSONWriter.string(value)
        case (_, .bool(let flag)): return flag ? language.replyWords.yes[0] : language.replyWords.no[0]
        case (_, .number(let text)), (_, .string(let text)): return text
        case (.dateRange, _):
            return [value["start"]?.stringValue, value["end"]?.stringValue].compactMap { $0 }.joined(separator: " to ")
        default:
            for member in ["displayName", "nickname", "organizationName", "name", "type", "id"] {
                if let text = value[member]?.stringValue { return text }
            }
            return JSONWriter.string(value)
        }
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
