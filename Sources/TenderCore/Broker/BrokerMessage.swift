// SPDX-License-Identifier: Apache-2.0
/// One message of the broker protocol: `{"tender": 1, "op": NAME, "body": {...}}`.
/// Parsed strictly by the same JSON parser as every host input: unknown
/// members, another version, an unknown operation or a body that is not an
/// object are refused.
public struct BrokerMessage: Equatable, Sendable {
    /// What the message asks or answers.
    public let op: BrokerOp
    /// Its arguments or results (always an object).
    public let body: JSONValue

    /// A message; `body` must be an object (an empty one when omitted).
    public init(_ op: BrokerOp, _ body: [(key: String, value: JSONValue)] = []) {
        self.op = op
        self.body = .object(body)
    }

    /// Parses a frame's body. Throws ``TenderError/invalidJSON(_:)``,
    /// ``TenderError/invalidUTF8(_:)`` or ``TenderError/invalidArgument(_:)``.
    public init(body bytes: [UInt8]) throws(TenderError) {
        guard bytes.count <= BrokerFrame.maxBodyBytes else { throw .tooLarge("a broker message exceeds \(BrokerFrame.maxBodyBytes) bytes") }
        let reader = try ObjectReader(try JSONParser.parse(bytes), name: "message", allowed: ["tender", "op", "body"])
        guard case let .number(version)? = reader["tender"], version == String(BrokerFrame.version) else {
            throw .invalidArgument("message.tender must be the protocol version \(BrokerFrame.version)")
        }
        let name = try reader.requiredString("op", maxLength: 32)
        guard let op = BrokerOp(rawValue: name) else { throw .invalidArgument("message.op \"\(name.prefix(32))\" is not an operation") }
        let body = reader["body"] ?? .object([])
        guard body.objectMembers != nil else { throw .invalidArgument("message.body must be a JSON object") }
        self.op = op
        self.body = body
    }

    /// The message's JSON form.
    public var json: JSONValue {
        .object([("tender", .number(String(BrokerFrame.version))), ("op", .string(op.rawValue)), ("body", body)])
    }

    /// The body read against the members `allowed`.
    public func reader(allowed: Set<String>) throws(TenderError) -> ObjectReader {
        try ObjectReader(body, name: op.rawValue, allowed: allowed)
    }
}
