// SPDX-License-Identifier: Apache-2.0
/// What a question is about, in the person's terms rather than the parameter's name:
/// the sentence tables phrase each one.
enum SpokenSubject: Equatable, Sendable {
    case payee, payer, amount, fromAccount, toAccount, intoAccount, billPayee, scheduledDate, dueDate, note
    case billType, paymentStatus, dateRange, party, accountType, balanceType, accountName, organization
    /// One of a person's handles (after the person was chosen).
    case handle
    /// A custom intent's parameter (its definition's words speak for it).
    case value

    /// The subject of `parameter` of `schema`.
    static func of(_ parameter: String, in schema: IntentSchema) -> SpokenSubject {
        if schema.custom != nil {
            switch schema.kind(of: parameter) {
            case .currencyAmount?: return .amount
            case .account?: return .fromAccount
            case .billPayee?: return .billPayee
            default: return .value
            }
        }
        switch parameter {
        case "payee": return .payee
        case "payer": return .payer
        case "currencyAmount", "transactionAmount": return .amount
        case "fromAccount": return .fromAccount
        case "toAccount": return .toAccount
        case "billPayee": return .billPayee
        case "transactionScheduledDate": return .scheduledDate
        case "dueDate": return .dueDate
        case "note", "transactionNote": return .note
        case "billType": return .billType
        case "status": return .paymentStatus
        case "paymentDateRange", "dueDateRange", "dateRange": return .dateRange
        case "party": return .party
        case "accountType": return .accountType
        case "requestedBalanceType": return .balanceType
        case "accountNickname": return .accountName
        case "organizationName": return .organization
        default: return .value
        }
    }
}
