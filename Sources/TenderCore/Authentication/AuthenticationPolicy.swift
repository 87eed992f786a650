// SPDX-License-Identifier: Apache-2.0
/// Which payments need the person to authenticate again, and for how long an
/// authentication can be reused; part of the engine configuration
/// (`"authentication"`, see docs/json.md).
public struct AuthenticationPolicy: Equatable, Sendable {
    /// The intents that move or ask for money, restricted by default (SiriKit restricts them while locked).
    public static let moneyMovingIntents = Set(IntentSchema.all.filter(\.movesMoney).map(\.name))
    /// The longest reuse window accepted, in seconds.
    public static let maxReuseSeconds: Int64 = 300
    /// The most payments one authentication may cover within its reuse window.
    public static let maxReuseCount = 5
    /// The PAM service of the installed library; any other needs ``testing``.
    public static let productionService = "tender"

    /// Intents that always need authentication: built-in intents' names and custom intents' names
    /// (a custom intent named here is restricted whatever its definition says).
    public var restrictedIntents: Set<String> = moneyMovingIntents
    /// Whether every custom intent of category `moneyMovement` always needs authentication, whatever
    /// its definition's `restricted` says (true by default; a configuration that lists
    /// `restrictedIntents` replaces the default and sets it false: the list then names every intent,
    /// built-in or custom, that always asks). Only the host's policy turns it off, never a definition.
    public var restrictsCustomMoneyMovement = true
    /// Amounts above these (per currency) need authentication for any intent.
    public var aboveAmount: [String: Money] = [:]
    /// A payee never paid before needs authentication: "paid before" is keyed on the handle paid
    /// (``Handle/paymentAddress``), so a directory edit re-pointing a handle makes the payee new again.
    public var newPayee = false
    /// A device (the intent's "device") that never authenticated before needs authentication.
    public var newDevice = false
    /// How long an authentication may be reused for the same user, intent and payee (0: always ask).
    /// The reuse is a budget: the authenticated amount is spent across the payments it covers afterwards.
    public var reuseSeconds: Int64 = 0
    /// How many later payments one authentication may cover within ``reuseSeconds`` (1 to ``maxReuseCount``, default 1).
    public var reuseCount = 1
    /// The PAM service; it must have a file in the PAM configuration directory.
    public var service = "tender"
    /// The PAM configuration directory (nil: the system's, /etc/pam.d).
    public var configDirectory: String?
    public var throttle = ThrottlePolicy.standard
    /// The engine configuration's `"testing": true`: the only way to use a
    /// service other than `tender` or a PAM directory of the caller's. Every
    /// audit entry then says so, and so does `tender verify`.
    public var testing = false

    /// Whether authentication runs on a stack other than the system's `tender` service.
    public var usesTestStack: Bool { service != Self.productionService || configDirectory != nil }

    /// The default policy: every money-moving intent asks, no reuse, service "tender".
    public init() {}

    /// The policy from its JSON form; every member optional.
    /// A service other than `tender` or a `pamConfigDirectory` is refused unless `testing`.
    public init(json: JSONValue, testing: Bool = false) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: "authentication",
            allowed: [
                "restrictedIntents", "aboveAmount", "newPayee", "newDevice", "reuseSeconds", "reuseCount", "service", "pamConfigDirectory",
                "throttle",
            ])
        self.init()
        self.testing = testing
        if let intents = try reader.array("restrictedIntents") {
            var names = Set<String>()
            for item in intents {
                // A built-in intent's name, or a custom intent's (loaded now or later): never one that
                // differs from a built-in's only by case, which could never match.
                guard let name = item.stringValue, name.utf8.count <= 64, CustomIntentDefinition.isIdentifier(name),
                    IntentSchema.named(name) != nil || !IntentDefinitionDocument.reservedNames.contains(name.lowercased())
                else {
                    throw .invalidArgument("authentication.restrictedIntents lists something that is not an intent's name (a built-in intent's or a custom intent's)")
                }
                names.insert(name)
            }
            restrictedIntents = names
            restrictsCustomMoneyMovement = false
        }
        if let amounts = reader["aboveAmount"] {
            guard let members = amounts.objectMembers else { throw .invalidArgument("authentication.aboveAmount must be an object of currencies") }
            // An empty rule would restrict nothing while looking like a limit: refused, not read as "no limit".
            guard !members.isEmpty else {
                throw .invalidArgument(
                    "authentication.aboveAmount lists no currency: give at least one limit (\"0\" restricts every amount of that currency; unlisted currencies are always restricted), or leave the rule out")
            }
            for member in members {
                guard let text = member.value.stringValue else { throw .invalidAmount("authentication.aboveAmount.\(member.key) must be a decimal string") }
                aboveAmount[member.key] = try Money(decimal: text, currency: try Currency(code: member.key), allowZero: true)
            }
        }
        newPayee = try reader.bool("newPayee") ?? false
        newDevice = try reader.bool("newDevice") ?? false
        if let seconds = reader["reuseSeconds"] {
            guard case let .number(text) = seconds, let value = Int64(text), value >= 0, value <= Self.maxReuseSeconds else {
                throw .invalidArgument("authentication.reuseSeconds must be a whole number from 0 to \(Self.maxReuseSeconds)")
            }
            reuseSeconds = value
        }
        if let count = reader["reuseCount"] {
            guard case let .number(text) = count, text.utf8.count == 1, let value = Int(text), value >= 1, value <= Self.maxReuseCount else {
                throw .invalidArgument("authentication.reuseCount must be a whole number from 1 to \(Self.maxReuseCount)")
            }
            reuseCount = value
        }
        if let name = try reader.string("service", maxLength: 64) {
            guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }),
                name != ".", name != ".."
            else { throw .invalidArgument("authentication.service must be a plain PAM service name") }
            service = name
        }
        configDirectory = try reader.string("pamConfigDirectory", maxLength: 4096)
        if usesTestStack && !testing {
            throw .invalidArgument(
                "authentication.service other than \"tender\" and authentication.pamConfigDirectory need \"testing\": true in the configuration")
        }
        if let throttleJSON = reader["throttle"] { throttle = try ThrottlePolicy(json: throttleJSON) }
    }

    /// Whether any built-in intent or rule can ever ask for authentication (a custom intent: ``alwaysRestricts(_:)``).
    public var asksAnything: Bool { !restrictedIntents.isEmpty || !aboveAmount.isEmpty || newPayee || newDevice }

    /// Whether the custom intent `definition` always asks, by this policy or by its definition
    /// (`"restricted": true`): named in ``restrictedIntents``, or moving money while ``restrictsCustomMoneyMovement``.
    public func alwaysRestricts(_ definition: CustomIntentDefinition) -> Bool {
        restrictedIntents.contains(definition.name) || (definition.category == .moneyMovement && restrictsCustomMoneyMovement)
            || definition.restriction == .always
    }

    /// Whether the policy alone (not a definition) always restricts `intent`; `customMovesMoney` says it is
    /// a custom intent of category `moneyMovement`.
    func restricts(intent: String, customMovesMoney: Bool) -> Bool {
        restrictedIntents.contains(intent) || (customMovesMoney && restrictsCustomMoneyMovement)
    }

    /// Why `payment` needs authentication, or nil when it does not.
    /// A custom intent's own `restriction` (its definition's `"restricted"`) applies before the engine's rules;
    /// it can only add to them: a money-moving custom intent (`customMovesMoney`) is restricted while
    /// ``restrictsCustomMoneyMovement``, whatever the definition says.
    func requirement(
        intent: String, amount: Money?, payeeID: String, device: String?, restriction: CustomIntentRestriction? = nil,
        customMovesMoney: Bool = false, records: any AuthenticationRecords
    ) throws(TenderError) -> String? {
        if restricts(intent: intent, customMovesMoney: customMovesMoney) || restriction == .always { return "restrictedIntent" }
        if case let .rules(limits, newPayee)? = restriction {
            if let amount, !limits.isEmpty {
                guard let limit = limits[amount.currency.code] else { return "aboveAmount (\(amount.currency.code) is not listed in the definition)" }
                if amount > limit { return "aboveAmount (the definition's)" }
            }
            if newPayee, !payeeID.isEmpty, try !records.hasPaid(party: payeeID) { return "newPayee (the definition's)" }
        }
        if let amount, !aboveAmount.isEmpty {
            // Fails closed: a currency the rule does not list is restricted.
            guard let limit = aboveAmount[amount.currency.code] else { return "aboveAmount (\(amount.currency.code) is not listed)" }
            if amount > limit { return "aboveAmount" }
        }
        if newPayee, !payeeID.isEmpty, try !records.hasPaid(party: payeeID) { return "newPayee" }
        if newDevice {
            guard let device, try records.isKnownDevice(device, remember: false) else { return "newDevice" }
        }
        return nil
    }
}
