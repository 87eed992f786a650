// SPDX-License-Identifier: Apache-2.0
extension DialogContext {
    /// A required amount checked against the engine's limits: needsValue,
    /// success, or unsupported with the SiriKit currency-amount reason.
    mutating func currencyAmount(_ parameter: String) -> Resolution<Money> {
        guard let amount = intent.money(parameter) else { return askValue(parameter, .needsValue) }
        return checked(parameter, amount)
    }

    /// Why `amount` breaks the engine's limits, or nil.
    func limitViolation(_ amount: Money) -> UnsupportedReason? {
        guard let bounds = engine.limits.bounds(for: amount.currency) else { return .paymentsCurrencyUnsupported }
        if amount < bounds.minimum { return .paymentsAmountBelowMinimum }
        if amount > bounds.maximum { return .paymentsAmountAboveMaximum }
        return nil
    }

    private mutating func checked(_ parameter: String, _ amount: Money) -> Resolution<Money> {
        if let reason = limitViolation(amount) { return askValue(parameter, .unsupported(reason: reason.rawValue)) }
        return Resolution(parameter, .success(amount.json), amount)
    }

    /// A bill payment's amount: a stated amount (within limits), or the
    /// bill's amount of the stated type ("the minimum due"); without either,
    /// the bill's amount due is suggested for confirmation. Unsupported
    /// amountTypeNotStated when the bill does not state that amount.
    mutating func billAmount(_ parameter: String, bill: Bill?) -> Resolution<Money> {
        let stated = intent.transactionAmount(parameter)
        let type = state.chosen[parameter].flatMap(AmountType.init(rawValue:)) ?? stated?.amountType
        if let amount = stated?.amount {
            let result = checked(parameter, amount)
            guard let money = result.value else { return result }
            let value = TransactionAmount(amountType: type, amount: money)
            return Resolution(parameter, .success(value.json), money)
        }
        guard let bill else { return askValue(parameter, .needsValue) }
        guard let type else {
            if state.declined.contains(parameter) { return askValue(parameter, .needsValue) }
            let suggestion = TransactionAmount(amountType: .amountDue, amount: bill.amountDue)
            return askConfirm(parameter, key: parameter, choices: [parameter: AmountType.amountDue.rawValue], shown: suggestion.json)
        }
        guard let amount = bill.amount(of: type), amount.minorUnits > 0 else {
            return askValue(parameter, .unsupported(reason: UnsupportedReason.amountTypeNotStated.rawValue))
        }
        let result = checked(parameter, amount)
        guard let money = result.value else { return result }
        return Resolution(parameter, .success(TransactionAmount(amountType: type, amount: money).json), money)
    }

    /// A transfer's amount: a stated amount within limits; an amount type alone is unsupported.
    mutating func transferAmount(_ parameter: String) -> Resolution<Money> {
        guard let stated = intent.transactionAmount(parameter) else { return askValue(parameter, .needsValue) }
        guard let amount = stated.amount else {
            return askValue(parameter, .unsupported(reason: UnsupportedReason.amountTypeNotStated.rawValue))
        }
        let result = checked(parameter, amount)
        guard let money = result.value else { return result }
        return Resolution(parameter, .success(TransactionAmount(amountType: stated.amountType, amount: money).json), money)
    }
}
