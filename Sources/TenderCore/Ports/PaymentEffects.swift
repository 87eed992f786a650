// SPDX-License-Identifier: Apache-2.0
/// What a payment did to the store, kept beside its record so a later status
/// change can complete or undo it: the balances it moved, the balances its
/// completion moves (a request's money arriving), and the bill it paid.
public struct PaymentEffects: Equatable, Sendable {
    public let movements: [BalanceMovement]
    public let onCompletion: [BalanceMovement]
    public let bill: PaidBill?

    public init(movements: [BalanceMovement], onCompletion: [BalanceMovement], bill: PaidBill?) {
        self.movements = movements
        self.onCompletion = onCompletion
        self.bill = bill
    }

    /// A bill's new status and payment date, applied only while the bill is
    /// still as the payment left it (a later payment of the same bill wins).
    public struct BillChange: Equatable, Sendable {
        public let bill: PaidBill
        public let status: PaymentStatus
        public let paymentDate: LocalDate?
    }

    /// What a change to `status` does: the balances to move, and the bill change (nil when the bill stays as it is).
    public func consequences(of status: PaymentStatus) -> (movements: [BalanceMovement], bill: BillChange?) {
        switch status {
        case .completed:
            return (onCompletion, bill.flatMap { $0.status == .pending ? BillChange(bill: $0, status: .completed, paymentDate: $0.on) : nil })
        case .canceled, .failed:
            let undone = movements.map { BalanceMovement(accountID: $0.accountID, currency: $0.currency, delta: -$0.delta) }
            return (undone, bill.map { BillChange(bill: $0, status: .unpaid, paymentDate: nil) })
        case .unknown, .pending, .unpaid:
            return ([], nil)
        }
    }

    /// `{"movements": [...], "onCompletion": [...], "bill": {"id", "status", "on"}}`.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("movements", .array(movements.map(Self.json))), ("onCompletion", .array(onCompletion.map(Self.json))),
        ]
        if let bill {
            members.append(("bill", .object([("id", .string(bill.id)), ("status", .string(bill.status.rawValue)), ("on", bill.on.json)])))
        }
        return .object(members)
    }

    /// Reads what ``json`` wrote; throws ``TenderError/store(_:)`` on anything else.
    public init(json: JSONValue) throws(TenderError) {
        func list(_ key: String) throws(TenderError) -> [BalanceMovement] {
            guard case let .array(items)? = json[key] else { throw .store("stored payment effects have no \(key)") }
            var movements: [BalanceMovement] = []
            for item in items {
                guard let account = item["account"]?.stringValue, let code = item["currency"]?.stringValue,
                    case let .number(text)? = item["delta"], let delta = Int64(text)
                else { throw .store("stored payment effects hold a malformed movement") }
                movements.append(BalanceMovement(accountID: account, currency: try Currency(code: code), delta: delta))
            }
            return movements
        }
        movements = try list("movements")
        onCompletion = try list("onCompletion")
        if let stored = json["bill"] {
            guard let id = stored["id"]?.stringValue, let status = stored["status"]?.stringValue.flatMap(PaymentStatus.init(rawValue:)),
                let on = stored["on"]?.stringValue
            else { throw .store("stored payment effects hold a malformed bill") }
            bill = PaidBill(id: id, status: status, on: try LocalDate(text: on, field: "bill.on"))
        } else {
            bill = nil
        }
    }

    private static func json(_ movement: BalanceMovement) -> JSONValue {
        .object([
            ("account", .string(movement.accountID)), ("currency", .string(movement.currency.code)),
            ("delta", .number(String(movement.delta))),
        ])
    }
}
