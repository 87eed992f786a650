// SPDX-License-Identifier: Apache-2.0
/// An intent as the host states it: which one, and the parameters it gave
/// (every parameter optional), plus the idempotency key and device.
public struct Intent: Equatable, Sendable {
    public let schema: IntentSchema
    public var values: [String: ParameterValue]
    /// Names the payment across retries; nil lets the session choose one.
    public var idempotencyKey: String?
    /// The host's name for the device the request came from, for the new-device rule.
    public var device: String?
    /// The language the person spoke the request in ("en", "es"), for the sentences Tender says; nil: the engine's locale.
    public var language: String?
    /// Whether the dialog first asks where the money goes, to someone else (send_payment) or between the person's
    /// own accounts (transfer_money) (``DestinationQuestion``); only for those two intents.
    public var asksDestination = false

    public init(schema: IntentSchema, values: [String: ParameterValue] = [:], idempotencyKey: String? = nil, device: String? = nil) {
        self.schema = schema
        self.values = values
        self.idempotencyKey = idempotencyKey
        self.device = device
    }

    /// Parses the intent document (schema in docs/intents.md): a built-in intent, or one of `custom`'s.
    public init(json: JSONValue, custom: CustomIntentCatalog? = nil) throws(TenderError) {
        try self.init(json: json, customIntents: custom?.definitions ?? [])
    }

    /// The members every intent's JSON may carry besides its parameters.
    private static let commonMembers = ["intent", "idempotencyKey", "device", "language"]

    /// Parses the intent document of a built-in intent or one of `customIntents`.
    init(json: JSONValue, customIntents: [CustomIntentDefinition]) throws(TenderError) {
        guard json.objectMembers != nil else { throw .invalidArgument("the intent must be a JSON object") }
        guard let name = json["intent"]?.stringValue else { throw .invalidArgument("intent is required and must be a string") }
        guard let schema = IntentSchema.named(name) ?? customIntents.first(where: { $0.name == name })?.schema else {
            let known = IntentSchema.all.map(\.name) + customIntents.map(\.name)
            throw .unknownIntent("unknown intent \"\(name.prefix(40))\"; known: \(known.joined(separator: ", "))")
        }
        let asking = DestinationQuestion.intents.contains(schema.name) && schema.custom == nil
        // The intent's parameters, the members every intent may carry and, for the intents that ask it, where the money goes.
        let reader = try ObjectReader(json, name: "intent") { key in
            schema.parameters.contains { $0.name == key } || Self.commonMembers.contains(key) || (asking && key == DestinationQuestion.member)
        }
        self.init(schema: schema)
        asksDestination = try reader.bool(DestinationQuestion.member) ?? false
        for (parameter, _) in schema.parameters {
            if let value = reader[parameter] { try supply(value, for: parameter, field: parameter) }
        }
        if let key = try reader.string("idempotencyKey", maxLength: 128) {
            guard !key.isEmpty, key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                throw .invalidArgument("idempotencyKey must be 1 to 128 printable ASCII characters")
            }
            idempotencyKey = key
        }
        device = try reader.string("device", maxLength: 128)
        if let code = try reader.string("language", maxLength: 35) {
            guard SpeechLanguage(locale: code) != nil || code.utf8.allSatisfy({ $0 < 0x80 && $0 != 0 }) && !code.isEmpty else {
                throw .invalidArgument("language must be a language code like \"en\" or \"es\"")
            }
            language = code
        }
    }

    /// Sets `parameter` from an answer's value; ``TenderError/notAsked(_:)`` when the intent has no such parameter.
    public mutating func supply(_ json: JSONValue, for parameter: String) throws(TenderError) {
        try supply(json, for: parameter, field: "value")
    }

    /// Sets `parameter` from `json`, naming `field` in errors; a custom intent's list parameter takes an array.
    private mutating func supply(_ json: JSONValue, for parameter: String, field: String) throws(TenderError) {
        guard let kind = schema.kind(of: parameter) else { throw .notAsked("\(schema.name) has no parameter \"\(parameter.prefix(64))\"") }
        guard schema.custom?.parameter(parameter)?.list == true else {
            values[parameter] = try ParameterValue(json: json, kind: kind, field: field)
            return
        }
        guard case let .array(items) = json, !items.isEmpty, items.count <= 50 else {
            throw .invalidArgument("\(field) must be a list of 1 to 50 values")
        }
        var list: [ParameterValue] = []
        for (i, item) in items.enumerated() { list.append(try ParameterValue(json: item, kind: kind, field: "\(field)[\(i)]")) }
        values[parameter] = .list(list)
    }

    public func person(_ p: String) -> PersonQuery? { if case let .person(v)? = values[p] { return v } else { return nil } }
    public func billPayee(_ p: String) -> BillPayeeQuery? { if case let .billPayee(v)? = values[p] { return v } else { return nil } }
    public func account(_ p: String) -> AccountQuery? { if case let .account(v)? = values[p] { return v } else { return nil } }
    public func money(_ p: String) -> Money? { if case let .money(v)? = values[p] { return v } else { return nil } }
    public func transactionAmount(_ p: String) -> TransactionAmount? {
        if case let .transactionAmount(v)? = values[p] { return v } else { return nil }
    }
    public func text(_ p: String) -> String? { if case let .text(v)? = values[p] { return v } else { return nil } }
    public func date(_ p: String) -> LocalDate? { if case let .date(v)? = values[p] { return v } else { return nil } }
    public func dateRange(_ p: String) -> DateRange? { if case let .dateRange(v)? = values[p] { return v } else { return nil } }
    public func phrase(_ p: String) -> String? { if case let .phrase(v)? = values[p] { return v } else { return nil } }
    public func list(_ p: String) -> [ParameterValue]? { if case let .list(v)? = values[p] { return v } else { return nil } }
}
