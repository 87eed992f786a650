import Synchronization
import TenderCore

/// An in-memory ``PaymentLedger`` that debits a ``FakeDirectory``, for core tests.
final class FakeLedger: PaymentLedger {
    private struct Entry { let fingerprint: String; let record: PaymentRecord; let payee: RecentPayee }
    private let entries = Mutex<[String: Entry]>([:])
    private let order = Mutex<[String]>([])
    private let directory: FakeDirectory

    init(directory: FakeDirectory) { self.directory = directory }

    func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        if let existing = entries.withLock({ $0[submission.idempotencyKey] }) {
            guard existing.fingerprint == submission.fingerprint else { throw .idempotencyConflict("other parameters") }
            return .alreadyPaid(existing.record)
        }
        guard let balance = directory.balance(submission.accountID) else { return .accountMissing }
        guard balance >= submission.amount.minorUnits else { return .insufficientFunds }
        directory.setBalance(submission.accountID, minorUnits: balance - submission.amount.minorUnits)
        let sequence = Int64(order.withLock { $0.count } + 1)
        let payload = submission.makePayload(
            LedgerPosition(sequence: sequence, previousHash: LedgerPosition.genesisHash, createdAtMilliseconds: 1_795_000_000_000))
        let record = PaymentRecord(json: payload, jws: "unsigned", sequence: sequence, idempotencyKey: submission.idempotencyKey)
        entries.withLock { $0[submission.idempotencyKey] = Entry(fingerprint: submission.fingerprint, record: record, payee: submission.payee) }
        order.withLock { $0.append(submission.idempotencyKey) }
        return .paid(record)
    }

    func records() throws(TenderError) -> [PaymentRecord] {
        let keys = order.withLock { $0 }
        return entries.withLock { e in keys.compactMap { e[$0]?.record } }
    }

    func payment(idempotencyKey: String) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)? {
        entries.withLock { $0[idempotencyKey].map { ($0.fingerprint, $0.record) } }
    }

    func mostRecentPayee() throws(TenderError) -> RecentPayee? {
        guard let key = order.withLock({ $0.last }) else { return nil }
        return entries.withLock { $0[key]?.payee }
    }
}
