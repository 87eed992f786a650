// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The policy root sets for every client (`/etc/tender/policy.json`):
/// `{"authentication", "limits", "dialog", "testing"}`, each optional, read
/// with the same parsers as an engine configuration. A client's own
/// `authentication` can only add to it (``AuthenticationPolicy/tightened(by:)``).
struct RootPolicy: Sendable {
    /// Where tenderd looks when no `--policy` is given; a missing file there means the defaults.
    static let defaultPath = "/etc/tender/policy.json"

    var authentication = AuthenticationPolicy()
    var limits = PaymentLimits.standard
    var dialog = DialogOptions()

    init() {}

    init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "policy", allowed: ["authentication", "limits", "dialog", "testing"])
        let testing = try reader.bool("testing") ?? false
        if let value = reader["authentication"] {
            authentication = try AuthenticationPolicy(json: value, testing: testing)
        } else {
            authentication.testing = testing
        }
        if let value = reader["limits"] { limits = try PaymentLimits(json: value) }
        if let value = reader["dialog"] { dialog = try DialogOptions(json: value) }
    }

    /// The policy in the file at `path`; with `required` false a missing file gives the defaults.
    static func load(path: String, required: Bool) throws(TenderError) -> RootPolicy {
        guard let file = fopen(path, "re") else {
            if errno == ENOENT && !required { return RootPolicy() }
            throw .notFound("the policy file \(path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            guard bytes.count <= JSONInput.maxBytes else { throw .tooLarge("the policy file exceeds \(JSONInput.maxBytes) bytes") }
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw .notFound("the policy file \(path) cannot be read") }
        return try RootPolicy(json: try JSONInput.parse(bytes))
    }
}
