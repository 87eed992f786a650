// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderWiring

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
        if !required, access(path, F_OK) != 0, errno == ENOENT { return RootPolicy() }
        return try RootPolicy(json: EngineFactory.readJSON(path, what: "policy file \(path)"))
    }
}
