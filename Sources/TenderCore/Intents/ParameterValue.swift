// SPDX-License-Identifier: Apache-2.0
/// A parameter's value as the host stated it, checked against its ``ParameterKind``.
public enum ParameterValue: Equatable, Sendable {
    case person(PersonQuery)
    case billPayee(BillPayeeQuery)
    case account(AccountQuery)
    case money(Money)
    case transactionAmount(TransactionAmount)
    /// A note, a nickname or an organization name.
    case text(String)
    case date(LocalDate)
    case dateRange(DateRange)
    /// An enum parameter's name or spoken phrase ("electricity", "power"), matched in resolve.
    case phrase(String)
    /// A custom intent's list parameter: one value per item.
    case list([ParameterValue])

    /// The longest note accepted, in characters.
    public static let maxNoteLength = 500

    /// Reads `json` as a value of `kind`, naming `field` in errors.
    public init(json: JSONValue, kind: ParameterKind, field: String) throws(TenderError) {
        switch kind {
        case .person: self = .person(try PersonQuery(json: json, field: field))
        case .billPayee: self = .billPayee(try BillPayeeQuery(json: json, field: field))
        case .account: self = .account(try AccountQuery(json: json, field: field))
        case .currencyAmount: self = .money(try Money(json: json, field: field))
        case .transactionAmount: self = .transactionAmount(try TransactionAmount(json: json, field: field))
        case .note, .text:
            let limit = kind == .note ? Self.maxNoteLength : 200
            guard let text = json.stringValue, text.count <= limit, kind == .note || text.contains(where: { $0.isLetter || $0.isNumber }) else {
                throw .invalidArgument("\(field) must be a string of at most \(limit) characters" + (kind == .note ? "" : " with a letter or digit"))
            }
            self = .text(text)
        case .date:
            guard let text = json.stringValue else { throw .invalidArgument("\(field) must be a date \"YYYY-MM-DD\"") }
            self = .date(try LocalDate(text: text, field: field))
        case .dateRange: self = .dateRange(try DateRange(json: json, field: field))
        case .integer, .decimal:
            let text = json.stringValue ?? { if case let .number(digits) = json { return digits } else { return nil } }()
            guard let text, Self.isNumber(text, fraction: kind == .decimal) else {
                throw .invalidArgument("\(field) must be a \(kind == .integer ? "whole number" : "decimal number") of at most 30 digits")
            }
            self = .text(text)
        case .boolean:
            guard let flag = json.boolValue else { throw .invalidArgument("\(field) must be true or false") }
            self = .text(flag ? "true" : "false")
        case .billType, .paymentStatus, .accountType, .balanceType, .choice:
            guard let text = json.stringValue, text.contains(where: { $0.isLetter }), text.count <= 100 else {
                throw .invalidArgument("\(field) must be a name or phrase of at most 100 characters")
            }
            self = .phrase(text)
        }
    }

    /// Whether `text` is an optionally signed whole number (or, with `fraction`, a decimal "12.50"), at most 30 characters.
    static func isNumber(_ text: String, fraction: Bool) -> Bool {
        guard text.utf8.count <= 30 else { return false }
        var digits = Substring(text)
        if digits.first == "-" { digits.removeFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || (fraction && parts.count == 2) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
