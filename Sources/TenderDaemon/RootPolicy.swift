// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderAuth
import TenderCore
import TenderPostgres
import TenderWiring

/// The policy root sets for every client (`/etc/tender/policy.json`):
/// `{"authentication", "limits", "dialog", "testing", "maxClientsPerUser", "store"}`, each optional, read
/// with the same parsers as an engine configuration, except that
/// `authentication.newDevice` is refused (the client names the device). A
/// client's own `authentication` can only add to it (``AuthenticationPolicy/tightened(by:)``).
struct RootPolicy: Sendable {
    /// Where tenderd looks when no `--policy` is given; a missing file there means the defaults.
    static let defaultPath = "/etc/tender/policy.json"

    var authentication = AuthenticationPolicy()
    var limits = PaymentLimits.standard
    var dialog = DialogOptions()
    /// How many connections of one uid tenderd serves at once (`--max-clients-per-user` wins; nil: a quarter of `--max-clients`).
    var maxClientsPerUser: Int?
    /// Where every person's store is kept (`"store"`: a `postgresql://` URI, docs/scale.md; `--store` wins); nil: SQLite files in `--state`.
    var store: PostgresLocation?

    init() {}

    init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "policy", allowed: ["authentication", "limits", "dialog", "testing", "maxClientsPerUser", "store"])
        let testing = try reader.bool("testing") ?? false
        if let value = reader["authentication"] {
            authentication = try AuthenticationPolicy(json: value, testing: testing)
        } else {
            authentication.testing = testing
        }
        // newDevice keys on the device name in the intent, which the client writes: behind the broker it cannot
        // hold against code running as the user (it names a known device), so root may not rely on it.
        guard !authentication.newDevice else {
            throw .invalidArgument(
                "policy.authentication.newDevice cannot hold in tenderd: the device is named by the client, so code running as the user "
                    + "can name a known one; use restrictedIntents, aboveAmount or newPayee (a host may still add newDevice for its own devices)")
        }
        if let value = reader["limits"] { limits = try PaymentLimits(json: value) }
        if let value = reader["dialog"] { dialog = try DialogOptions(json: value) }
        if let value = reader["maxClientsPerUser"] {
            guard case let .number(text) = value, text.utf8.count <= 4, let count = Int(text), count >= 1, count <= 4096 else {
                throw .invalidArgument("policy.maxClientsPerUser must be a whole number from 1 to 4096")
            }
            maxClientsPerUser = count
        }
        if let value = reader["store"] {
            guard case let .string(uri) = value else { throw .invalidArgument("policy.store must be a postgresql:// URI") }
            do throws(TenderError) { store = try PostgresLocation(uri) } catch { throw error.withMessage("policy.store: \(error.message)") }
        }
    }

    /// The policy in the file at `path`; with `required` false a missing file gives the defaults.
    /// A tenderd with pam_wrapper preloaded runs in testing mode, whatever the file says.
    static func load(path: String, required: Bool) throws(TenderError) -> RootPolicy {
        var policy: RootPolicy
        if !required, access(path, F_OK) != 0, errno == ENOENT {
            policy = RootPolicy()
        } else {
            policy = try RootPolicy(json: EngineFactory.readJSON(path, what: "policy file \(path)"))
        }
        if PAMAuthenticator.pamWrapperPresent { policy.authentication.testing = true }
        return policy
    }
}
