// SPDX-License-Identifier: Apache-2.0
/// One choice of a disambiguation: the id to answer with and the label to show or say.
public struct ResolutionOption: Equatable, Sendable {
    public let id: String
    public let label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }

    public var json: JSONValue { .object([("id", .string(id)), ("label", .string(label))]) }
}
