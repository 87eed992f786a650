// SPDX-License-Identifier: Apache-2.0
/// SiriKit's resolution result for one parameter.
public enum ResolutionResult: Equatable, Sendable {
    /// Resolved to `value`.
    case success(JSONValue)
    /// Several candidates; `prompt` says what is chosen ("person", "handle").
    case disambiguation(prompt: String, options: [ResolutionOption])
    /// One likely value the person must confirm.
    case confirmationRequired(JSONValue)
    /// Missing and required.
    case needsValue
    /// Optional and absent.
    case notRequired
    /// Cannot be used, for a parameter-specific reason (SiriKit's reason names).
    case unsupported(reason: String)

    /// True for success and notRequired: nothing left to ask.
    public var isResolved: Bool {
        switch self {
        case .success, .notRequired: return true
        default: return false
        }
    }

    /// The SiriKit name: "success", "disambiguation", ...
    public var name: String {
        switch self {
        case .success: return "success"
        case .disambiguation: return "disambiguation"
        case .confirmationRequired: return "confirmationRequired"
        case .needsValue: return "needsValue"
        case .notRequired: return "notRequired"
        case .unsupported: return "unsupported"
        }
    }
}
