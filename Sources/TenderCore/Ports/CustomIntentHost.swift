// SPDX-License-Identifier: Apache-2.0
/// The host's side of its custom intents (docs/custom-intents.md): it handles a
/// confirmed intent and lists the values of a parameter whose definition says
/// `"values": "host"`. Called on the thread of the session's call; implementations
/// used by several sessions at once must be thread-safe.
public protocol CustomIntentHost: Sendable {
    /// Handles `request`, `{"intent", "parameters": {...}, "idempotencyKey", "device"?}`, and
    /// answers `{"code": "success" | ..., "values": {...}}`. Throws
    /// ``TenderError/callback(_:)`` when the host fails; nothing is recorded then.
    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue
    /// The values the person may choose for `parameter` of `intent` (e.g. their expenses).
    func values(intent: String, parameter: String) throws(TenderError) -> [String]
}
