// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// A JSON file tenderd is configured with (root's policy), read whole and checked as every
/// host input is (``JSONInput``).
enum JSONFile {
    /// The document in the file at `path`; `what` names it in errors ("the policy file /etc/tender/policy.json").
    /// Throws ``TenderError/notFound(_:)`` when it cannot be opened or read,
    /// ``TenderError/tooLarge(_:)`` above ``JSONInput/maxBytes``, and the parser's errors.
    static func read(_ path: String, what: String) throws(TenderError) -> JSONValue {
        guard let json = try readIfPresent(path, what: what) else { throw .notFound("\(what) cannot be opened: errno \(ENOENT)") }
        return json
    }

    /// As ``read(_:what:)``, but nil when there is no file at `path`.
    static func readIfPresent(_ path: String, what: String) throws(TenderError) -> JSONValue? {
        guard let file = fopen(path, "re") else {
            if errno == ENOENT { return nil }
            throw .notFound("\(what) cannot be opened: errno \(errno)")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            guard bytes.count <= JSONInput.maxBytes else { throw .tooLarge("\(what) exceeds \(JSONInput.maxBytes) bytes") }
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw .notFound("\(what) cannot be read") }
        return try JSONInput.parse(bytes)
    }
}
