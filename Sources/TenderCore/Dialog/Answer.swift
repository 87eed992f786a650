// SPDX-License-Identifier: Apache-2.0
/// One answer from the host to one open question.
public struct Answer: Equatable, Sendable {
    /// What the answer says.
    public enum Kind: Equatable, Sendable {
        case choose(String)
        case confirm(Bool)
        case value(JSONValue)
    }

    public let parameter: String
    public let kind: Kind

    public init(parameter: String, kind: Kind) {
        self.parameter = parameter
        self.kind = kind
    }

    /// Parses `{"parameter": "payee", "choose" | "confirm" | "value": ...}`; exactly one of the three.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "answer", allowed: ["parameter", "choose", "confirm", "value"])
        let parameter = try reader.requiredString("parameter", maxLength: 64)
        var kinds: [Kind] = []
        if let id = try reader.string("choose", maxLength: 128) { kinds.append(.choose(id)) }
        if let yes = try reader.bool("confirm") { kinds.append(.confirm(yes)) }
        if let value = reader["value"] { kinds.append(.value(value)) }
        guard kinds.count == 1, let kind = kinds.first else {
            throw .invalidArgument("an answer has exactly one of choose, confirm or value")
        }
        self.init(parameter: parameter, kind: kind)
    }
}
