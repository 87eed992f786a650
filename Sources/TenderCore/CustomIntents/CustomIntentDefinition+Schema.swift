// SPDX-License-Identifier: Apache-2.0
extension CustomIntentDefinition {
    /// The intent as sessions see it: its parameters with the kind each one's JSON is read as.
    public var schema: IntentSchema {
        IntentSchema(name: name, parameters: parameters.map { ($0.name, $0.type.kind) }, movesMoney: category == .moneyMovement, custom: self)
    }
}

extension CustomParameterType {
    /// How a value of this type is read from an intent document or an answer.
    var kind: ParameterKind {
        switch self {
        case .string: return .text
        case .integer: return .integer
        case .decimal: return .decimal
        case .boolean: return .boolean
        case .currencyAmount: return .currencyAmount
        case .date: return .date
        case .dateRange: return .dateRange
        case .person: return .person
        case .account: return .account
        case .billPayee: return .billPayee
        case .enum: return .choice
        }
    }
}
