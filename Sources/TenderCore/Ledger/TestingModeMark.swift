// SPDX-License-Identifier: Apache-2.0
/// The ledger entry an engine in testing mode (a PAM stack that is not the
/// system's `tender`) writes before the first payment it lets through, once per
/// PAM stack and ledger (type `testing_mode`). Chained and signed like a payment,
/// so the mark cannot be removed the way an audit row can.
public enum TestingModeMark {
    /// The ledger entry type.
    public static let entryType = "testing_mode"

    /// The payload naming the PAM service and, when given, the PAM directory the engine used.
    public static func payload(at position: LedgerPosition, service: String, configDirectory: String?) -> String {
        var body: [(key: String, value: JSONValue)] = [("service", .string(service))]
        if let configDirectory { body.append(("configDirectory", .string(configDirectory))) }
        return position.payload(type: entryType, body: JSONWriter.members(body))
    }
}
