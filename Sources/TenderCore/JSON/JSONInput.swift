// SPDX-License-Identifier: Apache-2.0
/// The checks every JSON input from a host goes through: size, UTF-8, syntax.
public enum JSONInput {
    /// The largest input accepted, in bytes (1 MiB), as TENDER_MAX_INPUT_BYTES.
    public static let maxBytes = 1 << 20

    /// Parses a host's input. Throws ``TenderError/tooLarge(_:)``,
    /// ``TenderError/invalidUTF8(_:)`` or ``TenderError/invalidJSON(_:)``.
    public static func parse(_ bytes: [UInt8]) throws(TenderError) -> JSONValue {
        guard bytes.count <= maxBytes else { throw .tooLarge("input of \(bytes.count) bytes exceeds \(maxBytes)") }
        return try JSONParser.parse(bytes)
    }
}
