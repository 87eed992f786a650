// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INPaymentAmount: an amount, or which of a bill's amounts to pay
/// ("the minimum due"), or both.
public struct TransactionAmount: Equatable, Sendable {
    public let amountType: AmountType?
    public let amount: Money?

    public init(amountType: AmountType?, amount: Money?) {
        self.amountType = amountType
        self.amount = amount
    }

    /// `{"amountType": "minimumDue"}` or `{"amount": {"amount": "120", "currency": "USD"}}`; at least one.
    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(json, name: field, allowed: ["amountType", "amount"])
        let type = try reader.string("amountType", maxLength: 40).map { (t) throws(TenderError) in try AmountType.named(t, field: "\(field).amountType") }
        let amount = try reader["amount"].map { (v) throws(TenderError) in try Money(json: v, field: "\(field).amount") }
        guard type != nil || amount != nil else { throw .invalidArgument("\(field) needs an amountType, an amount or both") }
        self.init(amountType: type, amount: amount)
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let amountType { members.append(("amountType", .string(amountType.rawValue))) }
        if let amount { members.append(("amount", amount.json)) }
        return .object(members)
    }
}
