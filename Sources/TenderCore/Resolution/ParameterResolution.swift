// SPDX-License-Identifier: Apache-2.0
/// The result of resolving one named parameter of an intent.
public struct ParameterResolution: Equatable, Sendable {
    public let parameter: String
    public let result: ResolutionResult
    /// What to say to the person, in their words: a custom intent's prompt or unsupported reason (nil for the built-in intents).
    public let message: String?
    /// The sentence to say to the person for this result, in their language (docs/dialog.md); nil for success and notRequired.
    public var say: String?
    /// For an unsupported (or a missing account's or bill payee's needsValue) result: what may be said instead (the accounts,
    /// people, payees or values there are), answered with `choose`.
    public var help: [ResolutionOption] = []

    public init(parameter: String, result: ResolutionResult, message: String? = nil) {
        self.parameter = parameter
        self.result = result
        self.message = message
    }

    /// `{"parameter": ..., "result": ..., plus "value", "options"/"prompt" or "reason" (and "options" of help), and "message" and "say" when there are}`.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("parameter", .string(parameter)), ("result", .string(result.name))]
        switch result {
        case let .success(value), let .confirmationRequired(value):
            members.append(("value", value))
        case let .disambiguation(prompt, options):
            members.append(("prompt", .string(prompt)))
            members.append(("options", .array(options.map(\.json))))
        case let .unsupported(reason):
            members.append(("reason", .string(reason)))
            if !help.isEmpty { members.append(("options", .array(help.map(\.json)))) }
        case .needsValue:
            if !help.isEmpty { members.append(("options", .array(help.map(\.json)))) }
        case .notRequired:
            break
        }
        if let message { members.append(("message", .string(message))) }
        if let say { members.append(("say", .string(say))) }
        return .object(members)
    }
}
