// SPDX-License-Identifier: Apache-2.0
/// One audit entry: who, what happened, when; never a secret.
public struct AuditEntry: Equatable, Sendable {
    public let id: Int64
    public let atMilliseconds: Int64
    public let user: String
    /// An ``AuditEvent``'s raw value (kept as text: the store may hold entries of other versions).
    public let event: String
    public let intent: String
    public let detail: String

    public init(id: Int64, atMilliseconds: Int64, user: String, event: String, intent: String, detail: String) {
        self.id = id
        self.atMilliseconds = atMilliseconds
        self.user = user
        self.event = event
        self.intent = intent
        self.detail = detail
    }

    public var json: JSONValue {
        .object([
            ("id", .number(String(id))), ("at", .string(Timestamp.rfc3339(milliseconds: atMilliseconds))), ("user", .string(user)),
            ("event", .string(event)), ("intent", .string(intent)), ("detail", .string(detail)),
        ])
    }
}
