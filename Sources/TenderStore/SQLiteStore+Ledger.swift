// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    public func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        try submissions.submit(submission) { batch in commit(batch) }.get()
    }

    /// A payment decided inside a batch, waiting for its signature.
    private struct Pending {
        let submission: PaymentSubmission
        let position: LedgerPosition
        let payload: String
        let hash: String
        var jws = ""
    }

    /// Pays a batch in one write transaction (one flush): every submission is
    /// checked and debited in order, their records are chained and signed on
    /// the other cores as they are built, and appended. No outcome is known before the
    /// transaction is durable; if it fails, every submission of the batch fails.
    private func commit(_ batch: [PaymentSubmission]) -> [Result<SubmissionOutcome, TenderError>] {
        do throws(TenderError) {
            return try write { (db) throws(TenderError) in
                let signer = try activeSigner(db)
                let signing = CompactJWS.Batch(signer: signer, capacity: batch.count)
                defer { signing.abandon() }
                var head = try Self.head(db)
                var outcomes: [Result<SubmissionOutcome, TenderError>?] = Array(repeating: nil, count: batch.count)
                var pending: [Pending] = []
                var pendingByKey: [String: Int] = [:]
                var duplicates: [(outcome: Int, pending: Int)] = []
                for (index, submission) in batch.enumerated() {
                    if let earlier = pendingByKey[submission.idempotencyKey] {
                        outcomes[index] = pending[earlier].submission.fingerprint == submission.fingerprint ? nil : .failure(Self.conflict)
                        if outcomes[index] == nil { duplicates.append((index, earlier)) }
                        continue
                    }
                    do throws(TenderError) {
                        if let outcome = try precheck(submission, db) {
                            outcomes[index] = .success(outcome)
                            continue
                        }
                    } catch {
                        // A conflict refuses this submission only; any store error aborts the whole batch.
                        guard case .idempotencyConflict = error else { throw error }
                        outcomes[index] = .failure(error)
                        continue
                    }
                    try apply(submission, db)
                    let position = LedgerPosition(sequence: head.sequence + 1, previousHash: head.hash, createdAtMilliseconds: clock.nowMilliseconds())
                    let payload = submission.makePayload(position)
                    let bytes = Array(payload.utf8)
                    let hash = try LedgerEntry.hash(ofPayload: bytes, crypto: crypto)
                    head = (position.sequence, hash)
                    try signing.add(payload: bytes)
                    pendingByKey[submission.idempotencyKey] = pending.count
                    pending.append(Pending(submission: submission, position: position, payload: payload, hash: hash))
                }
                let jws = try signing.finish()
                for (index, text) in jws.enumerated() {
                    pending[index].jws = text
                    try insert(pending[index], db)
                }
                for (index, submission) in batch.enumerated() where outcomes[index] == nil {
                    guard let slot = pendingByKey[submission.idempotencyKey] else { continue }
                    let entry = pending[slot]
                    let record = PaymentRecord(json: entry.payload, jws: entry.jws, sequence: entry.position.sequence, idempotencyKey: submission.idempotencyKey)
                    outcomes[index] = .success(duplicates.contains { $0.outcome == index } ? .alreadyPaid(record) : .paid(record))
                }
                return outcomes.map { $0 ?? .failure(.internal("a submission of the batch got no outcome")) }
            }
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }

    private static let conflict = TenderError.idempotencyConflict("this idempotency key already paid a payment with other parameters")

    /// The outcome of a submission decided without paying (paid before, its
    /// bill paid already, an account missing, funds short), or nil to pay it.
    private func precheck(_ submission: PaymentSubmission, _ db: Database) throws(TenderError) -> SubmissionOutcome? {
        if let existing = try Self.payment(idempotencyKey: submission.idempotencyKey, db) {
            guard existing.fingerprint == submission.fingerprint else { throw Self.conflict }
            return .alreadyPaid(existing.record)
        }
        if let paid = submission.paidBill {
            // Two sessions (two keys) confirming the same bill must not both pay it.
            let row = try db.statement("SELECT document FROM bills WHERE id = ?", [paid.id])
            if try row.step(), let text = row.text(0) {
                _ = try row.step()
                guard try Bill(json: try JSONParser.parse(text), field: "stored bill").status == .unpaid else { return .billSettled }
            }
        }
        for movement in submission.movements {
            let account = try db.statement("SELECT balance_minor, currency FROM accounts WHERE id = ?", [movement.accountID])
            guard try account.step(), account.text(1) == movement.currency.code else { return .accountMissing }
            let balance = account.int64(0)
            _ = try account.step()
            if movement.delta < 0, balance < -movement.delta { return .insufficientFunds }
        }
        return nil
    }

    /// Moves the balances and marks the paid bill, inside the batch's transaction.
    private func apply(_ submission: PaymentSubmission, _ db: Database) throws(TenderError) {
        for movement in submission.movements {
            try db.statement("UPDATE accounts SET balance_minor = balance_minor + ? WHERE id = ?", [movement.delta, movement.accountID]).run()
        }
        guard let paid = submission.paidBill else { return }
        let row = try db.statement("SELECT document FROM bills WHERE id = ?", [paid.id])
        guard try row.step(), let text = row.text(0) else { return }
        _ = try row.step()
        let bill = try Bill(json: try JSONParser.parse(text), field: "stored bill")
        try Self.storeBill(bill.with(status: paid.status, paymentDate: paid.on), db)
    }

    private func insert(_ entry: Pending, _ db: Database) throws(TenderError) {
        let submission = entry.submission
        try db.statement(
            """
            INSERT INTO ledger (sequence, type, jws, hash, idempotency_key, fingerprint, account_id, payee_contact_id,
                payee_handle_id, currency, amount_minor, effects)
            VALUES (?, 'payment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [entry.position.sequence, entry.jws, entry.hash, submission.idempotencyKey, submission.fingerprint,
             submission.movements.first?.accountID, submission.payee?.contactID, submission.payee?.handleID,
             submission.amount.currency.code, submission.amount.minorUnits, submission.effectsJSON]
        ).run()
    }

    /// The last entry's sequence and hash (0 and the genesis hash for an empty ledger).
    static func head(_ db: Database) throws(TenderError) -> (sequence: Int64, hash: String) {
        let head = try db.statement("SELECT sequence, hash FROM ledger ORDER BY sequence DESC LIMIT 1")
        guard try head.step() else { return (0, LedgerPosition.genesisHash) }
        let result = (head.int64(0), head.text(1) ?? "")
        _ = try head.step()
        guard result.0 >= 0, result.0 < Int64.max / 2 else { throw .store("the ledger's last sequence number is out of range") }
        return result
    }

    /// Appends one signed non-payment entry at the head, inside the caller's
    /// write transaction; a status entry also stores its payment's sequence
    /// (`subject`) and the status it sets. Returns the entry's sequence, payload and JWS.
    @discardableResult
    func append(
        type: String, _ db: Database, subject: Int64? = nil, status: String? = nil, payload: (LedgerPosition) -> String
    ) throws(TenderError) -> (sequence: Int64, payload: String, jws: String) {
        let head = try Self.head(db)
        let position = LedgerPosition(sequence: head.sequence + 1, previousHash: head.hash, createdAtMilliseconds: clock.nowMilliseconds())
        let text = payload(position)
        let jws = try CompactJWS.sign(payload: Array(text.utf8), signer: try activeSigner(db))
        let hash = try LedgerEntry.hash(ofPayload: Array(text.utf8), crypto: crypto)
        try db.statement(
            "INSERT INTO ledger (sequence, type, jws, hash, subject, status) VALUES (?, ?, ?, ?, ?, ?)",
            [position.sequence, type, jws.text, hash, subject, status]
        ).run()
        return (position.sequence, text, jws.text)
    }

    static func paymentRecord(jws: String, sequence: Int64, key: String) throws(TenderError) -> PaymentRecord {
        let parsed = try CompactJWS(parsing: jws)
        return PaymentRecord(json: String(decoding: parsed.payload, as: UTF8.self), jws: jws, sequence: sequence, idempotencyKey: key)
    }

    public func records() throws(TenderError) -> [PaymentRecord] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT jws, sequence, idempotency_key FROM ledger WHERE type = 'payment' ORDER BY sequence").rows {
                (row) throws(TenderError) in
                try Self.paymentRecord(jws: row.text(0) ?? "", sequence: row.int64(1), key: row.text(2) ?? "")
            }
        }
    }

    public func payment(idempotencyKey: String) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)? {
        try read { (db) throws(TenderError) in try Self.payment(idempotencyKey: idempotencyKey, db) }
    }

    /// The payment made under `idempotencyKey` and its fingerprint, inside the caller's transaction.
    private static func payment(idempotencyKey: String, _ db: Database) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)? {
        let row = try db.statement("SELECT fingerprint, jws, sequence FROM ledger WHERE idempotency_key = ?", [idempotencyKey])
        guard try row.step(), let fingerprint = row.text(0) else { return nil }
        let record = try paymentRecord(jws: row.text(1) ?? "", sequence: row.int64(2), key: idempotencyKey)
        _ = try row.step()
        return (fingerprint, record)
    }

    public func mostRecentPayee() throws(TenderError) -> RecentPayee? {
        try read { (db) throws(TenderError) in
            let row = try db.statement(
                "SELECT payee_contact_id, payee_handle_id FROM ledger WHERE payee_contact_id IS NOT NULL ORDER BY sequence DESC LIMIT 1")
            guard try row.step(), let contact = row.text(0), let handle = row.text(1) else { return nil }
            _ = try row.step()
            return RecentPayee(contactID: contact, handleID: handle)
        }
    }

    /// Every ledger entry, in stored order.
    public func ledgerEntries() throws(TenderError) -> [LedgerEntry] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT sequence, jws FROM ledger ORDER BY sequence").rows { LedgerEntry(sequence: $0.int64(0), jws: $0.text(1) ?? "") }
        }
    }

    /// A signed checkpoint of the ledger as it stands: its length and head hash.
    public func checkpoint() throws(TenderError) -> String {
        try write { (db) throws(TenderError) in
            let count = try db.statement("SELECT COUNT(*) FROM ledger")
            _ = try count.step()
            let total = count.int64(0)
            _ = try count.step()
            let payload = Checkpoint.payload(count: total, headHash: try Self.head(db).hash, createdAtMilliseconds: clock.nowMilliseconds())
            return try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db)).text
        }
    }

    /// Verifies every entry, optionally against an earlier checkpoint. The
    /// root of trust is `trustedKeys` when given (a pinned key), else the first
    /// key this store recorded; later keys are trusted only through signed rotations.
    /// Then checks every column kept beside the records against their signed
    /// payloads (``verifyColumns()``), and re-derives every account's balance
    /// from its signed anchor and the ledger (``verifyBalances(trustedKeys:)``).
    /// Throws ``TenderError/ledgerTampered(_:)`` naming the first bad record. `progress` is told
    /// how far the signed chain's verification went (``LedgerVerifier/Progress``).
    public func verify(
        checkpoint: String? = nil, trustedKeys: [String: [UInt8]]? = nil, progress: LedgerVerifier.Progress? = nil
    ) throws(TenderError) -> LedgerVerifier.Report {
        let entries = try ledgerEntries()
        var trusted: [String: [UInt8]] = [:]
        if let trustedKeys {
            trusted = trustedKeys
        } else {
            if let first = try publicKeys().first { trusted[first.keyID] = first.publicKey }
        }
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: trusted)
        let report = try verifier.verify(entries, checkpoint: checkpoint, progress: progress)
        try verifyColumns()
        try verifyBalances(trustedKeys: verifier.trustedKeys)
        return report
    }
}
