// SPDX-License-Identifier: Apache-2.0
/// Where a new ledger entry goes: its sequence number, the hash of the entry
/// before it, and the time the ledger appends it.
public struct LedgerPosition: Equatable, Sendable {
    /// The `previousHash` of the first entry: base64url of 32 zero bytes.
    public static let genesisHash = Base64URL.encode([UInt8](repeating: 0, count: 32))

    public let sequence: Int64
    public let previousHash: String
    public let createdAtMilliseconds: Int64

    public init(sequence: Int64, previousHash: String, createdAtMilliseconds: Int64) {
        self.sequence = sequence
        self.previousHash = previousHash
        self.createdAtMilliseconds = createdAtMilliseconds
    }

    /// The members every entry's payload starts with.
    public func members(type: String) -> [(key: String, value: JSONValue)] {
        [("type", .string(type)), ("sequence", .number(String(sequence))), ("previousHash", .string(previousHash))]
    }

    /// An entry's payload: the members every entry starts with, then `body`
    /// (compact JSON members without braces, see ``JSONWriter/members(_:)``),
    /// then `createdAt`; the same text as one object written with those members.
    public func payload(type: String, body: [UInt8]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(body.count + 160)
        out += JSONWriter.members(members(type: type))
        if !body.isEmpty {
            out.append(UInt8(ascii: ","))
            out += body
        }
        out.append(UInt8(ascii: ","))
        out += JSONWriter.members([("createdAt", .string(createdAt))])
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The entry's time as RFC 3339 text.
    public var createdAt: String { Timestamp.rfc3339(milliseconds: createdAtMilliseconds) }
}
