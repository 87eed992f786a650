// SPDX-License-Identifier: Apache-2.0
/// The result of resolving one named parameter of an intent.
public struct ParameterResolution: Equatable, Sendable {
    public let parameter: String
    public let result: ResolutionResult

    public init(parameter: String, result: ResolutionResult) {
        self.parameter = parameter
        self.result = result
    }

    /// `{"parameter": ..., "result": ..., plus "value", "options"/"prompt" or "reason"}`.
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
        return .object(members)
    }
}
