// SPDX-License-Identifier: Apache-2.0
/// When handling a custom intent asks the person to authenticate again (`"restricted"`).
public enum CustomIntentRestriction: Equatable, Sendable {
    /// Always (`true`; the default for an intent that moves money).
    case always
    /// Never (`false`; the default for an information intent).
    case never
    /// Only when a rule holds: an amount above the currency's limit (a currency not listed is
    /// always restricted: the rule fails closed), or a person never paid before.
    case rules(aboveAmount: [String: Money], newPayee: Bool)

    init(json: JSONValue?, category: CustomIntentCategory, field: String) throws(TenderError) {
        guard let json else {
            self = category == .moneyMovement ? .always : .never
            return
        }
        if let flag = json.boolValue {
            self = flag ? .always : .never
            return
        }
        let reader = try ObjectReader(json, name: field, allowed: ["aboveAmount", "newPayee"])
        var limits: [String: Money] = [:]
        if let amounts = reader["aboveAmount"] {
            guard let members = amounts.objectMembers, !members.isEmpty else {
                throw .invalidArgument("\(field).aboveAmount must be an object of currencies and decimal strings")
            }
            for member in members {
                guard let text = member.value.stringValue else { throw .invalidAmount("\(field).aboveAmount.\(member.key) must be a decimal string") }
                limits[member.key] = try Money(decimal: text, currency: try Currency(code: member.key), allowZero: true)
            }
        }
        let newPayee = try reader.bool("newPayee") ?? false
        guard !limits.isEmpty || newPayee else {
            throw .invalidArgument("\(field) must be true, false, or rules (aboveAmount, newPayee) of which at least one applies")
        }
        self = .rules(aboveAmount: limits, newPayee: newPayee)
    }
}
