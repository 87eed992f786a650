// SPDX-License-Identifier: Apache-2.0
/// One choice of a disambiguation (or of what may replace a refused value): the id to answer
/// with, the label to show, and the words to say for it in the person's language.
public struct ResolutionOption: Equatable, Sendable {
    public let id: String
    public let label: String
    /// The option as said ("móvil" for the handle labelled mobile); nil until the session speaks it.
    public var say: String?

    public init(id: String, label: String, say: String? = nil) {
        self.id = id
        self.label = label
        self.say = say
    }

    /// `{"id", "label"}`, and `"say"` when spoken.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id)), ("label", .string(label))]
        if let say { members.append(("say", .string(say))) }
        return .object(members)
    }

    /// Equal ids and labels: the words said do not make another option.
    public static func == (a: ResolutionOption, b: ResolutionOption) -> Bool { a.id == b.id && a.label == b.label }
}
