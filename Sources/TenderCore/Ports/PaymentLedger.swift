/// What the core asks the ledger to pay: the idempotency key, a fingerprint
/// of the parameters, and the record to sign and keep if the payment is made.
public struct PaymentSubmission: Sendable {
    public let idempotencyKey: String
    /// The canonical parameters: the same key with another fingerprint is a conflict.
    public let fingerprint: String
    public let accountID: String
    public let amount: Money
    /// Who is paid, remembered for the most-recent-payee suggestion.
    public let payee: RecentPayee
    /// Builds the record's JSON once the ledger knows where it goes.
    public let makePayload: @Sendable (LedgerPosition) -> String

    public init(
        idempotencyKey: String, fingerprint: String, accountID: String, amount: Money, payee: RecentPayee,
        makePayload: @escaping @Sendable (LedgerPosition) -> String
    ) {
        self.idempotencyKey = idempotencyKey
        self.fingerprint = fingerprint
        self.accountID = accountID
        self.amount = amount
        self.payee = payee
        self.makePayload = makePayload
    }
}

/// The ledger's answer to a submission.
public enum SubmissionOutcome: Sendable, Equatable {
    /// Paid now: the account was debited and the record kept, atomically.
    case paid(PaymentRecord)
    /// Paid before under the same key with the same parameters: nothing paid now.
    case alreadyPaid(PaymentRecord)
    /// The account no longer holds the amount; nothing paid.
    case insufficientFunds
    /// The account no longer exists; nothing paid.
    case accountMissing
}

/// The port that pays: debits the account and appends the signed record to
/// the hash-chained ledger in one atomic, durable step, exactly once per
/// idempotency key, across threads and processes.
public protocol PaymentLedger: Sendable {
    /// Pays `submission` unless its key was paid before. Throws
    /// ``TenderError/idempotencyConflict(_:)`` when the key was used with other parameters.
    func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome
    /// Every record, oldest first.
    func records() throws(TenderError) -> [PaymentRecord]
    /// The payment made under `idempotencyKey`, with the fingerprint of its parameters, or nil.
    func payment(idempotencyKey: String) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)?
    /// The payee of the latest payment, or nil when nothing was paid yet.
    func mostRecentPayee() throws(TenderError) -> RecentPayee?
}
