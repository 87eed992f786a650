// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// An in-memory ``PaymentLedger`` that moves the balances of a ``FakeDirectory``, for core tests; its
/// ``HostCallClaims`` never wait (the core tests run one session at a time): a key claimed and not
/// finished is busy, one finished without its record an unknown outcome.
final class FakeLedger: PaymentLedger, HostCallClaims {
    private struct Entry { let fingerprint: String; let record: PaymentRecord; let payee: RecentPayee? }
    private let entries = Mutex<[String: Entry]>([:])
    private let order = Mutex<[String]>([])
    private let directory: FakeDirectory

    init(directory: FakeDirectory) { self.directory = directory }

    func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        if let existing = entries.withLock({ $0[submission.idempotencyKey] }) {
            guard existing.fingerprint == submission.fingerprint else { throw .idempotencyConflict("other parameters") }
            return .alreadyPaid(existing.record)
        }
        if let paid = submission.paidBill, let bill = try directory.bills().first(where: { $0.id == paid.id }), bill.status != .unpaid {
            return .billSettled
        }
        for movement in submission.movements {
            guard let balance = directory.balance(movement.accountID) else { return .accountMissing }
            guard balance + movement.delta >= 0 else { return .insufficientFunds }
        }
        for movement in submission.movements {
            directory.setBalance(movement.accountID, minorUnits: (directory.balance(movement.accountID) ?? 0) + movement.delta)
        }
        if let paid = submission.paidBill {
            let bills = (try? directory.bills()) ?? []
            directory.setBills(bills.map { bill in
                guard bill.id == paid.id else { return bill }
                return bill.with(status: paid.status, paymentDate: paid.on)
            })
        }
        let sequence = Int64(order.withLock { $0.count } + 1)
        let payload = submission.makePayload(
            LedgerPosition(sequence: sequence, previousHash: LedgerPosition.genesisHash, createdAtMilliseconds: 1_795_000_000_000))
        let record = PaymentRecord(json: payload, jws: "unsigned", sequence: sequence, idempotencyKey: submission.idempotencyKey)
        entries.withLock { $0[submission.idempotencyKey] = Entry(fingerprint: submission.fingerprint, record: record, payee: submission.payee) }
        if submission.releasesClaim { claims.withLock { $0[submission.idempotencyKey] = nil } }
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
        let keys = order.withLock { $0 }
        return entries.withLock { e in keys.reversed().compactMap { e[$0]?.payee }.first }
    }

    private let statuses = Mutex<[String: PaymentStatus]>([:])

    /// Records the status only (no balances, no signed entry): enough for the dialogs that read statuses.
    func changeStatus(idempotencyKey: String, to status: PaymentStatus) throws(TenderError) -> PaymentRecord {
        guard let record = entries.withLock({ $0[idempotencyKey]?.record }) else { throw .notFound("no payment has this key") }
        statuses.withLock { $0[idempotencyKey] = status }
        return record
    }

    func changedStatuses() throws(TenderError) -> [String: PaymentStatus] { statuses.withLock { $0 } }

    /// The information intents recorded, oldest first (unsigned).
    let intentRecords = Mutex<[PaymentRecord]>([])

    func recordIntent(idempotencyKey: String, makePayload: @Sendable (LedgerPosition) -> String) throws(TenderError) -> PaymentRecord {
        let sequence = Int64(order.withLock { $0.count } + intentRecords.withLock { $0.count } + 1)
        let payload = makePayload(LedgerPosition(sequence: sequence, previousHash: LedgerPosition.genesisHash, createdAtMilliseconds: 1_795_000_000_000))
        let record = PaymentRecord(json: payload, jws: "unsigned", sequence: sequence, idempotencyKey: idempotencyKey)
        intentRecords.withLock { $0.append(record) }
        return record
    }

    /// Claims by key: the token, and the code when the host answered a failure.
    let claims = Mutex<[String: (token: String, failure: ResponseCode?)]>([:])
    private let held = Mutex<Set<String>>([])
    private let tokens = Mutex(0)

    func claim(_ call: HostCall) throws(TenderError) -> ClaimOutcome {
        if entries.withLock({ $0[call.idempotencyKey] }) != nil { return .recorded }
        if let claim = claims.withLock({ $0[call.idempotencyKey] }), claim.failure == nil {
            if held.withLock({ $0.contains(claim.token) }) { throw .storeBusy("another session holds the key") }
            throw .outcomeUnknown("the host's answer under \(call.idempotencyKey) was never recorded")
        }
        let token = "t\(tokens.withLock { $0 += 1; return $0 })"
        held.withLock { _ = $0.insert(token) }
        claims.withLock { $0[call.idempotencyKey] = (token, nil) }
        return .claimed(token)
    }

    func release(_ token: String, failure: ResponseCode) throws(TenderError) {
        claims.withLock { all in
            for (key, claim) in all where claim.token == token { all[key] = (token, failure) }
        }
    }

    func finish(_ token: String) { held.withLock { _ = $0.remove(token) } }
}
