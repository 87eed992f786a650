// SPDX-License-Identifier: Apache-2.0
/// A person in the directory, with the handles a payment can reach.
public struct Contact: Equatable, Sendable {
    public let id: String
    public let displayName: String
    /// Ordered as imported; the order of a handle disambiguation.
    public let handles: [Handle]

    public init(id: String, displayName: String, handles: [Handle]) {
        self.id = id
        self.displayName = displayName
        self.handles = handles
    }

    public var json: JSONValue {
        .object([("id", .string(id)), ("displayName", .string(displayName)), ("handles", .array(handles.map(\.json)))])
    }

    /// A contact from its directory JSON form; handle ids must be unique.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["id", "displayName", "handles"])
        var handles: [Handle] = []
        for (i, item) in (try reader.array("handles") ?? []).enumerated() {
            let handle = try Handle(json: item, field: "\(field).handles[\(i)]")
            guard !handles.contains(where: { $0.id == handle.id }) else {
                throw .invalidArgument("\(field).handles[\(i)].id is used twice")
            }
            handles.append(handle)
        }
        self.init(
            id: try reader.requiredString("id", maxLength: 128),
            displayName: try reader.requiredString("displayName", maxLength: 200), handles: handles)
    }
}
