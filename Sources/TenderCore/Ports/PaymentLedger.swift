// SPDX-License-Identifier: Apache-2.0
/// One change to a balance kept in the store: a debit (negative) or credit.
public struct BalanceMovement: Equatable, Sendable {
    public let accountID: String
    public let currency: Currency
    /// Minor units added to the balance; negative for a debit.
    public let delta: Int64

    public init(accountID: String, currency: Currency, delta: Int64) {
        self.accountID = accountID
        self.currency = currency
        self.delta = delta
    }
}

/// What the core asks the ledger to record: the idempotency key, a fingerprint
/// of the parameters, the balance movements, and the record to sign and keep.
public struct PaymentSubmission: Sendable {
    public let idempotencyKey: String
    /// The canonical parameters: the same key with another fingerprint is a conflict.
    public let fingerprint: String
    /// The payment's amount, kept beside the record.
    public let amount: Money
    /// Balances the store changes in the same transaction (none when the host's backend moves the money).
    public let movements: [BalanceMovement]
    /// Who is paid, remembered for the most-recent-payee suggestion (send payment only).
    public let payee: RecentPayee?
    /// The bill this pays and how it stands afterwards.
    public let paidBill: PaidBill?
    /// Balances the store changes when this pending payment later completes (a request's money arriving).
    public let completionMovements: [BalanceMovement]
    /// The party the store remembers as paid, in the same transaction (``AuthenticationRecords/hasPaid(party:)``):
    /// a handle's ``Handle/paymentAddress``; nil remembers nothing.
    public let paidParty: String?
    /// Whether this session holds the key's claim (``HostCallClaims``): the store removes the claim in the
    /// payment's own transaction, so a payment the host made and its record are never seen apart.
    public let releasesClaim: Bool
    /// Builds the record's JSON once the ledger knows where it goes. The
    /// store reads the fingerprint and effects back from the record's
    /// `"ledger"` member (``ledgerColumns(fingerprint:amount:effects:)``), which it must carry.
    public let makePayload: @Sendable (LedgerPosition) -> String

    public init(
        idempotencyKey: String, fingerprint: String, amount: Money, movements: [BalanceMovement], payee: RecentPayee? = nil,
        paidBill: PaidBill? = nil, completionMovements: [BalanceMovement] = [], paidParty: String? = nil, releasesClaim: Bool = false,
        makePayload: @escaping @Sendable (LedgerPosition) -> String
    ) {
        self.idempotencyKey = idempotencyKey
        self.fingerprint = fingerprint
        self.amount = amount
        self.movements = movements
        self.payee = payee
        self.paidBill = paidBill
        self.completionMovements = completionMovements
        self.paidParty = paidParty
        self.releasesClaim = releasesClaim
        self.makePayload = makePayload
    }

    /// A format-2 record's `"ledger"` member (``RecordFormat/ledgerMembers``): what the store keeps beside
    /// the record and cannot read from its other members, signed in it so verify can check the columns. The
    /// fingerprint is the SHA-256 of `fingerprint`, the canonical parameters (``PaymentFingerprint``); the
    /// idempotency key, the account debited and the payee are the record's own members, written once.
    public static func ledgerColumns(fingerprint: String, amount: Money, effects: PaymentEffects) -> JSONValue {
        .object([
            ("fingerprint", .string(PaymentFingerprint.digest(ofCanonical: fingerprint))), ("currency", .string(amount.currency.code)),
            ("amountMinor", .number(String(amount.minorUnits))), ("effects", effects.json),
        ])
    }
}

/// The ledger's answer to a submission.
public enum SubmissionOutcome: Sendable, Equatable {
    /// Paid now: the account was debited and the record kept, atomically.
    case paid(PaymentRecord)
    /// Paid before under the same key with the same parameters: nothing paid now.
    case alreadyPaid(PaymentRecord)
    /// A debited account no longer holds the amount; nothing paid.
    case insufficientFunds
    /// An account no longer exists or changed currency; nothing paid.
    case accountMissing
    /// The bill was paid (or scheduled) by another payment since confirm; nothing paid.
    case billSettled
}

/// The port that pays: moves the balances and appends the signed record to
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
    /// Records a later status change of the payment made under
    /// `idempotencyKey` as a signed ledger entry, and completes or undoes its
    /// effects (balances, bill) in the same transaction; returns that entry.
    /// Changing to the status the payment already has records nothing and
    /// returns the entry that set it. Throws ``TenderError/notFound(_:)`` for
    /// an unknown key, ``TenderError/wrongState(_:)`` when the payment's
    /// status is final (see ``PaymentStatusChange/allows(from:to:)``) or its
    /// effects cannot be undone (an account no longer holds what it received).
    func changeStatus(idempotencyKey: String, to status: PaymentStatus) throws(TenderError) -> PaymentRecord
    /// The latest status of every payment whose status changed since it was recorded, by idempotency key.
    func changedStatuses() throws(TenderError) -> [String: PaymentStatus]
    /// Appends a signed, hash-chained entry of type ``PaymentRecord/intentEntryType`` recording a handled
    /// intent that moved no money (a custom information intent whose definition asks to be recorded), and
    /// returns it. Moves nothing; `idempotencyKey` only names the session in the returned record.
    func recordIntent(idempotencyKey: String, makePayload: @Sendable (LedgerPosition) -> String) throws(TenderError) -> PaymentRecord
}
