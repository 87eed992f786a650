// SPDX-License-Identifier: Apache-2.0
/// How dialogs behave: the prompt limit and transfer fees; the engine
/// configuration's `"dialog"` member (docs/json.md).
public struct DialogOptions: Equatable, Sendable {
    /// The most prompts accepted.
    public static let maxPromptsLimit = 20

    /// How many resolves in a row may leave one parameter unresolved before the dialog ends (default 5).
    public var maxPrompts = 5
    /// The fee of a transfer, by currency code.
    public var transferFees: [String: Money] = [:]
    /// Whether handle refuses to move money until the person said yes to the
    /// confirmation question (``DialogSession/agree(_:)``); default true. A host
    /// that asks the person in its own words before every handle may turn it off.
    public var requireAgreement = true
    /// The language Tender speaks to the person in when the request does not say (the configuration's
    /// `"locale"`, e.g. "es-ES"): English unless set.
    public var language = SpeechLanguage.english

    public init() {}

    /// Parses `{"maxPrompts": 5, "transferFee": {"USD": "0.50"}, "requireAgreement": true}`; every member optional.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "dialog", allowed: ["maxPrompts", "transferFee", "requireAgreement"])
        if let value = reader["maxPrompts"] {
            // One message for every bad value (1e999, -1, 2.5, 21): the range that is enforced.
            guard case let .number(text) = value, text.utf8.count <= 2, let count = Int(text), count >= 1, count <= Self.maxPromptsLimit else {
                throw .invalidArgument("dialog.maxPrompts must be a whole number from 1 to \(Self.maxPromptsLimit)")
            }
            maxPrompts = count
        }
        if let agreement = try reader.bool("requireAgreement") { requireAgreement = agreement }
        if let fees = reader["transferFee"] {
            guard let members = fees.objectMembers else { throw .invalidArgument("dialog.transferFee must be an object of currencies") }
            for member in members {
                guard let text = member.value.stringValue else { throw .invalidAmount("dialog.transferFee.\(member.key) must be a decimal string") }
                transferFees[member.key] = try Money(decimal: text, currency: try Currency(code: member.key), allowZero: true)
            }
        }
    }
}
