// SPDX-License-Identifier: Apache-2.0
/// The broker protocol's framing (docs/broker.md): a 4-byte big-endian length,
/// then that many bytes of one UTF-8 JSON message. Pure: no I/O.
public enum BrokerFrame {
    /// The protocol version every message carries (`"tender": 1`).
    public static let version = 1
    /// The largest message body accepted: a host's largest input plus room for the envelope.
    public static let maxBodyBytes = JSONInput.maxBytes + 65_536
    /// The size of the length prefix.
    public static let headerBytes = 4

    /// The frame holding `message`: its length, then its JSON.
    public static func encode(_ message: BrokerMessage) -> [UInt8] {
        let body = JSONWriter.bytes(message.json)
        let count = UInt32(truncatingIfNeeded: body.count)
        return [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)] + body
    }

    /// The body length a header announces; throws ``TenderError/tooLarge(_:)``
    /// above ``maxBodyBytes`` and ``TenderError/invalidJSON(_:)`` for an empty frame,
    /// so a peer can be refused before its body is read.
    public static func bodyLength(header: some Collection<UInt8>) throws(TenderError) -> Int {
        guard header.count == headerBytes else { throw .invalidJSON("a broker frame header has \(headerBytes) bytes") }
        let length = header.reduce(0) { ($0 << 8) | Int($1) }
        guard length > 0 else { throw .invalidJSON("an empty broker frame") }
        guard length <= maxBodyBytes else { throw .tooLarge("a broker frame of \(length) bytes exceeds \(maxBodyBytes)") }
        return length
    }

    /// Decodes one whole frame held in `bytes` (header and body, nothing after).
    public static func decode(_ bytes: [UInt8]) throws(TenderError) -> BrokerMessage {
        guard bytes.count >= headerBytes else { throw .invalidJSON("a truncated broker frame header") }
        let length = try bodyLength(header: bytes[0..<headerBytes])
        guard bytes.count - headerBytes == length else {
            throw .invalidJSON("a broker frame announces \(length) bytes and holds \(bytes.count - headerBytes)")
        }
        return try BrokerMessage(body: Array(bytes[headerBytes...]))
    }
}
