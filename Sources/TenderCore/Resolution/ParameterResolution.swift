// SPDX-License-Identifier: Apache-2.0
/// The result of resolving one named parameter of an intent.
public struct ParameterResolution: Equatable, Sendable {
    public let parameter: String
    public let result: ResolutionResult
    /// What to say to the person, in their words: a custom intent's prompt or unsupported reason (nil for the built-in intents).
    public let message: String?

    public init(parameter: String, result: ResolutionResult, message: String? = nil) {
        self.parameter = parameter
        self.result = result
        self.message = message
    }

    /// `{"parameter": ..., "result": ..., plus "value", "options"/"prompt" or "reason", and "message" when there is one}`.
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
        case .needsValue, .notRequired:
            break
        }
        if let message { members.append(("message", .string(message))) }
        return .object(members)
    }
}
