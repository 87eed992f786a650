/// One send-payment dialog, SiriKit's resolve → confirm → handle.
///
/// The person's choices are explicit state: a chosen contact or handle is
/// kept, not inferred again on the next resolve. A session belongs to one
/// thread at a time; it is not Sendable. Every method either succeeds or
/// throws and leaves the session as it was.
public final class SendPaymentSession {
    /// Where the dialog stands.
    enum Phase: Equatable {
        case resolving
        case ready(ConfirmedPayment)
        case handled(ConfirmedPayment, PaymentRecord)
    }

    /// The parameter names, in SiriKit's order.
    public static let parameters = ["payee", "currencyAmount", "note"]

    private let engine: Engine
    private var intent: SendPaymentIntent
    private var chosenContactID: String?
    private var chosenHandleID: String?
    private var declinedSuggestion = false
    private var openQuestions: [String: OpenQuestion] = [:]
    private var phase = Phase.resolving
    private let recordID = RandomID.make()

    /// The key naming this payment: the host's, else a random one.
    public let idempotencyKey: String
    /// How to ask the person to authenticate, when the policy requires it.
    public var conversation: (any Conversation)?
    /// Why the last handle answered failureCredentialsUnverified, if it did.
    public private(set) var lastDenial: AuthenticationDenial?

    /// Starts a dialog about `intent`.
    public init(engine: Engine, intent: SendPaymentIntent) {
        self.engine = engine
        self.intent = intent
        self.idempotencyKey = intent.idempotencyKey ?? RandomID.make()
        if let id = intent.payee?.contactID { chosenContactID = id }
    }

    /// Starts a dialog from the host's JSON intent.
    public convenience init(engine: Engine, json: JSONValue) throws(TenderError) {
        self.init(engine: engine, intent: try SendPaymentIntent(json: json))
    }

    // MARK: resolve

    /// Resolves every parameter; the ones that need an answer become the open questions.
    public func resolve() throws(TenderError) -> [ParameterResolution] {
        if case .handled = phase { throw .wrongState("the payment was already handled") }
        var questions: [String: OpenQuestion] = [:]
        let payee = try resolvePayee(questions: &questions)
        let amount = resolveAmount(questions: &questions)
        let note: ResolutionResult = intent.note.map { .success(.string($0)) } ?? .notRequired
        openQuestions = questions
        return [
            ParameterResolution(parameter: "payee", result: payee.result),
            ParameterResolution(parameter: "currencyAmount", result: amount),
            ParameterResolution(parameter: "note", result: note),
        ]
    }

    /// The resolution document: `{"intent", "complete", "parameters"}`.
    public func resolveJSON() throws(TenderError) -> JSONValue {
        let results = try resolve()
        return .object([
            ("intent", .string(SendPaymentIntent.name)), ("complete", .bool(results.allSatisfy(\.result.isResolved))),
            ("parameters", .array(results.map(\.json))),
        ])
    }

    private struct PayeeResolution {
        let result: ResolutionResult
        var contact: Contact? = nil
        var handle: Handle? = nil
    }

    private func resolvePayee(questions: inout [String: OpenQuestion]) throws(TenderError) -> PayeeResolution {
        let directory = engine.directory
        let contact: Contact
        if let id = chosenContactID {
            guard let found = try directory.contact(id: id) else {
                questions["payee"] = .supplyValue
                return PayeeResolution(result: .unsupported(reason: PayeeUnsupportedReason.noMatchingContact.rawValue))
            }
            contact = found
        } else if let name = intent.payee?.name {
            let found = NameMatcher.matches(name, in: try directory.contacts())
            switch found.count {
            case 0:
                questions["payee"] = .supplyValue
                return PayeeResolution(result: .unsupported(reason: PayeeUnsupportedReason.noMatchingContact.rawValue))
            case 1:
                contact = found[0]
            default:
                questions["payee"] = .choosePerson(found.map(\.id))
                let options = found.map { ResolutionOption(id: $0.id, label: $0.displayName) }
                return PayeeResolution(result: .disambiguation(prompt: "person", options: options))
            }
        } else {
            if !declinedSuggestion, let recent = try engine.ledger.mostRecentPayee(),
                let person = try directory.contact(id: recent.contactID),
                let handle = person.handles.first(where: { $0.id == recent.handleID })
            {
                questions["payee"] = .confirmPayee(recent)
                return PayeeResolution(result: .confirmationRequired(ConfirmedPayment.payeeJSON(person, handle)))
            }
            questions["payee"] = .supplyValue
            return PayeeResolution(result: .needsValue)
        }
        return resolveHandle(of: contact, questions: &questions)
    }

    private func resolveHandle(of contact: Contact, questions: inout [String: OpenQuestion]) -> PayeeResolution {
        let wanted = chosenHandleID ?? intent.payee?.handle
        var candidates = contact.handles
        if let wanted {
            let named = contact.handles.filter { $0.id == wanted || $0.label.lowercased() == wanted.lowercased() }
            if !named.isEmpty { candidates = named }
        }
        switch candidates.count {
        case 0:
            questions["payee"] = .supplyValue
            return PayeeResolution(result: .unsupported(reason: PayeeUnsupportedReason.noValidHandle.rawValue))
        case 1:
            let handle = candidates[0]
            return PayeeResolution(result: .success(ConfirmedPayment.payeeJSON(contact, handle)), contact: contact, handle: handle)
        default:
            questions["payee"] = .chooseHandle(candidates.map(\.id))
            let options = candidates.map { ResolutionOption(id: $0.id, label: $0.label) }
            return PayeeResolution(result: .disambiguation(prompt: "handle", options: options))
        }
    }

    private func resolveAmount(questions: inout [String: OpenQuestion]) -> ResolutionResult {
        guard let amount = intent.currencyAmount else {
            questions["currencyAmount"] = .supplyValue
            return .needsValue
        }
        if let reason = limitViolation(amount) {
            questions["currencyAmount"] = .supplyValue
            return .unsupported(reason: reason.rawValue)
        }
        return .success(amount.json)
    }

    private func limitViolation(_ amount: Money) -> CurrencyAmountUnsupportedReason? {
        guard let bounds = engine.limits.bounds(for: amount.currency) else { return .paymentsCurrencyUnsupported }
        if amount < bounds.minimum { return .paymentsAmountBelowMinimum }
        if amount > bounds.maximum { return .paymentsAmountAboveMaximum }
        return nil
    }

    // MARK: answer

    /// Applies one answer to an open question of the last resolve. Throws
    /// ``TenderError/notAsked(_:)`` for a question not asked (or answered in
    /// the wrong way), ``TenderError/unknownOption(_:)`` for an id not offered.
    public func answer(_ answer: Answer) throws(TenderError) {
        if case .handled = phase { throw .wrongState("the payment was already handled") }
        guard let question = openQuestions[answer.parameter] else {
            throw .notAsked("no open question about \"\(answer.parameter.prefix(64))\"; call resolve first")
        }
        switch (question, answer.kind) {
        case let (.choosePerson(ids), .choose(id)):
            guard ids.contains(id) else { throw .unknownOption("\"\(id.prefix(64))\" was not one of the people offered") }
            chosenContactID = id
            chosenHandleID = nil
        case let (.chooseHandle(ids), .choose(id)):
            guard ids.contains(id) else { throw .unknownOption("\"\(id.prefix(64))\" was not one of the handles offered") }
            chosenHandleID = id
        case let (.confirmPayee(recent), .confirm(yes)):
            if yes {
                chosenContactID = recent.contactID
                chosenHandleID = recent.handleID
            } else {
                declinedSuggestion = true
            }
        case let (.supplyValue, .value(value)):
            try supply(value, for: answer.parameter)
        default:
            throw .notAsked("the question about \"\(answer.parameter)\" is not answered that way")
        }
        openQuestions[answer.parameter] = nil
        phase = .resolving
    }

    private func supply(_ value: JSONValue, for parameter: String) throws(TenderError) {
        switch parameter {
        case "payee":
            let query = try PayeeQuery(json: value, field: "value")
            intent.payee = query
            chosenContactID = query.contactID
            chosenHandleID = nil
        case "currencyAmount":
            intent.currencyAmount = try Money(json: value, field: "value")
        default:
            throw .notAsked("\"\(parameter)\" does not take a value")
        }
    }

    // MARK: confirm

    /// Checks that the resolved payment can be made: limits, currency, a bank
    /// account, funds. Throws ``TenderError/wrongState(_:)`` while a parameter
    /// is unresolved or after handle.
    public func confirm() throws(TenderError) -> (code: SendPaymentResponseCode, response: JSONValue) {
        if case .handled = phase { throw .wrongState("the payment was already handled") }
        var questions: [String: OpenQuestion] = [:]
        let payee = try resolvePayee(questions: &questions)
        guard let contact = payee.contact, let handle = payee.handle else {
            throw .wrongState("the payee is not resolved; resolve and answer first")
        }
        guard let amount = intent.currencyAmount else {
            throw .wrongState("the currency amount is not resolved; resolve and answer first")
        }
        let account = try engine.directory.payingAccount(for: amount.currency)
        let candidate = account.map { ConfirmedPayment(contact: contact, handle: handle, amount: amount, note: intent.note, account: $0) }
        let code: SendPaymentResponseCode
        if let candidate, try alreadyPaid(candidate) {
            // A retry of a payment made before: handle will return its record; funds and limits no longer matter.
            code = .ready
        } else {
            code = checkedCode(amount: amount, account: account)
        }
        var intentJSON: JSONValue = .object([
            ("intent", .string(SendPaymentIntent.name)), ("payee", ConfirmedPayment.payeeJSON(contact, handle)),
            ("currencyAmount", amount.json),
        ])
        if let candidate, code == .ready {
            intentJSON = candidate.intentJSON
            phase = .ready(candidate)
        } else {
            phase = .resolving
        }
        var members: [(key: String, value: JSONValue)] = [("code", .string(code.name)), ("intent", intentJSON)]
        if let account { members.append(("account", account.reference)) }
        return (code, .object(members))
    }

    /// The code confirm answers for a new payment: limits, currency, a bank account, funds.
    private func checkedCode(amount: Money, account: Account?) -> SendPaymentResponseCode {
        switch limitViolation(amount) {
        case .paymentsCurrencyUnsupported: return .failurePaymentsCurrencyUnsupported
        case .paymentsAmountBelowMinimum: return .failurePaymentsAmountBelowMinimum
        case .paymentsAmountAboveMaximum: return .failurePaymentsAmountAboveMaximum
        case nil:
            guard let account else { return .failureNoBankAccount }
            return account.balance.minorUnits >= amount.minorUnits ? .ready : .failureInsufficientFunds
        }
    }

    /// Whether this session's key already paid exactly `payment`.
    private func alreadyPaid(_ payment: ConfirmedPayment) throws(TenderError) -> Bool {
        try engine.ledger.payment(idempotencyKey: idempotencyKey)?.fingerprint == payment.fingerprint
    }

    // MARK: handle

    /// Pays the confirmed payment exactly once, after re-authenticating the
    /// person when the engine's policy asks for it (nothing is submitted when
    /// that fails: the answer is failureCredentialsUnverified and
    /// ``lastDenial`` says why). Handling again returns the original record.
    /// Throws ``TenderError/wrongState(_:)`` unless confirm answered ready,
    /// ``TenderError/idempotencyConflict(_:)`` when the key already paid something else.
    public func handle() throws(TenderError) -> (code: SendPaymentResponseCode, record: PaymentRecord?) {
        lastDenial = nil
        let confirmed: ConfirmedPayment
        switch phase {
        case .resolving: throw .wrongState("confirm must answer ready before handle")
        case let .ready(payment):
            confirmed = payment
            // A retry of a payment already made pays nothing, so it asks nothing
            // (looked up only when the policy could ask at all).
            guard engine.gate.policy.asksAnything, try !alreadyPaid(payment) else { break }
            lastDenial = try engine.gate.check(
                intent: SendPaymentIntent.name, amount: payment.amount, payeeID: payment.contact.id, device: intent.device,
                conversation: conversation)
            if lastDenial != nil { return (.failureCredentialsUnverified, nil) }
        case let .handled(payment, _): confirmed = payment
        }
        let key = idempotencyKey
        let id = recordID
        let submission = PaymentSubmission(
            idempotencyKey: key, fingerprint: confirmed.fingerprint, accountID: confirmed.account.id, amount: confirmed.amount,
            payee: RecentPayee(contactID: confirmed.contact.id, handleID: confirmed.handle.id)
        ) { position in
            confirmed.payload(id: id, idempotencyKey: key, at: position)
        }
        switch try engine.ledger.submit(submission) {
        case let .paid(record), let .alreadyPaid(record):
            phase = .handled(confirmed, record)
            return (.success, record)
        case .insufficientFunds:
            phase = .resolving
            return (.failureInsufficientFunds, nil)
        case .accountMissing:
            phase = .resolving
            return (.failureNoBankAccount, nil)
        }
    }
}
