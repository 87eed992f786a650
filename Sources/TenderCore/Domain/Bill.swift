// SPDX-License-Identifier: Apache-2.0
/// One bill of a bill payee, SiriKit's INBillDetails.
public struct Bill: Equatable, Sendable {
    public let id: String
    public let billPayeeID: String
    public let type: BillType
    public let status: PaymentStatus
    public let amountDue: Money
    public let minimumDue: Money?
    public let lateFee: Money?
    public let statementBalance: Money?
    public let currentBalance: Money?
    public let dueDate: LocalDate
    /// The day it was paid, once paid.
    public let paymentDate: LocalDate?

    public init(
        id: String, billPayeeID: String, type: BillType, status: PaymentStatus, amountDue: Money, minimumDue: Money? = nil,
        lateFee: Money? = nil, statementBalance: Money? = nil, currentBalance: Money? = nil, dueDate: LocalDate, paymentDate: LocalDate? = nil
    ) {
        self.id = id
        self.billPayeeID = billPayeeID
        self.type = type
        self.status = status
        self.amountDue = amountDue
        self.minimumDue = minimumDue
        self.lateFee = lateFee
        self.statementBalance = statementBalance
        self.currentBalance = currentBalance
        self.dueDate = dueDate
        self.paymentDate = paymentDate
    }

    /// This bill with another status and payment date.
    public func with(status: PaymentStatus, paymentDate: LocalDate?) -> Bill {
        Bill(
            id: id, billPayeeID: billPayeeID, type: type, status: status, amountDue: amountDue, minimumDue: minimumDue, lateFee: lateFee,
            statementBalance: statementBalance, currentBalance: currentBalance, dueDate: dueDate, paymentDate: paymentDate)
    }

    /// The amount of `type`, when the bill states it.
    public func amount(of type: AmountType) -> Money? {
        switch type {
        case .minimumDue: return minimumDue
        case .amountDue: return amountDue
        case .statementBalance: return statementBalance ?? amountDue
        case .currentBalance: return currentBalance ?? amountDue
        case .unknown, .maximumTransferAmount, .minimumTransferAmount: return nil
        }
    }

    /// The directory form.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("billPayee", .string(billPayeeID)), ("type", .string(type.rawValue)),
            ("status", .string(status.rawValue)), ("amountDue", amountDue.json),
        ]
        if let minimumDue { members.append(("minimumDue", minimumDue.json)) }
        if let lateFee { members.append(("lateFee", lateFee.json)) }
        if let statementBalance { members.append(("statementBalance", statementBalance.json)) }
        if let currentBalance { members.append(("currentBalance", currentBalance.json)) }
        members.append(("dueDate", dueDate.json))
        if let paymentDate { members.append(("paymentDate", paymentDate.json)) }
        return .object(members)
    }

    /// SiriKit's bill details: the directory form with the payee spelled out.
    public func details(payee: BillPayee?) -> JSONValue {
        guard case var .object(members) = json else { return json }
        if let payee, let index = members.firstIndex(where: { $0.key == "billPayee" }) { members[index].value = payee.json }
        return .object(members)
    }

    public init(json: JSONValue, field: String) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: field,
            allowed: ["id", "billPayee", "type", "status", "amountDue", "minimumDue", "lateFee", "statementBalance", "currentBalance", "dueDate", "paymentDate"])
        func money(_ key: String) throws(TenderError) -> Money? {
            try reader[key].map { (v) throws(TenderError) in try Money(json: v, field: "\(field).\(key)", allowZero: true) }
        }
        func date(_ key: String) throws(TenderError) -> LocalDate? {
            try reader.string(key, maxLength: 10).map { (t) throws(TenderError) in try LocalDate(text: t, field: "\(field).\(key)") }
        }
        guard let amountDue = try money("amountDue") else { throw .invalidArgument("\(field).amountDue is required") }
        guard let dueDate = try date("dueDate") else { throw .invalidArgument("\(field).dueDate is required") }
        let others = [try money("minimumDue"), try money("lateFee"), try money("statementBalance"), try money("currentBalance")]
        guard others.allSatisfy({ $0 == nil || $0?.currency == amountDue.currency }) else {
            throw .invalidArgument("\(field): every amount of a bill must be in the same currency")
        }
        self.init(
            id: try reader.requiredString("id", maxLength: 128), billPayeeID: try reader.requiredString("billPayee", maxLength: 128),
            type: try BillType.named(try reader.string("type", maxLength: 40) ?? "unknown", field: "\(field).type"),
            status: try PaymentStatus.named(try reader.string("status", maxLength: 40) ?? "unpaid", field: "\(field).status"),
            amountDue: amountDue, minimumDue: others[0], lateFee: others[1], statementBalance: others[2], currentBalance: others[3],
            dueDate: dueDate, paymentDate: try date("paymentDate"))
    }
}
