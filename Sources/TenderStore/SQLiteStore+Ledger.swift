import TenderCore

extension SQLiteStore {
    public func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        try submissions.submit(submission) { batch in commit(batch) }.get()
    }

    /// Pays a batch in one write transaction, each submission in its own
    /// savepoint so one refusal does not undo the others. Every outcome is
    /// known only once the transaction is durable.
    private func commit(_ batch: [PaymentSubmission]) -> [Result<SubmissionOutcome, TenderError>] {
        do throws(TenderError) {
            return try write { (db) throws(TenderError) in
                var outcomes: [Result<SubmissionOutcome, TenderError>] = []
                for submission in batch {
                    try db.execute("SAVEPOINT submission")
                    do throws(TenderError) {
                        outcomes.append(.success(try pay(submission, db)))
                        try db.execute("RELEASE submission")
                    } catch {
                        try db.execute("ROLLBACK TO submission")
                        try db.execute("RELEASE submission")
                        outcomes.append(.failure(error))
                    }
                }
                return outcomes
            }
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }

    private func pay(_ submission: PaymentSubmission, _ db: Database) throws(TenderError) -> SubmissionOutcome {
        let existing = try db.statement(
            """
            SELECT p.fingerprint, l.jws, l.sequence FROM payments p JOIN ledger l ON l.sequence = p.sequence
            WHERE p.idempotency_key = ?
            """, [submission.idempotencyKey])
        if try existing.step() {
            let fingerprint = existing.text(0)
            let jws = existing.text(1) ?? ""
            let sequence = existing.int64(2)
            _ = try existing.step()
            guard fingerprint == submission.fingerprint else {
                throw .idempotencyConflict("this idempotency key already paid a payment with other parameters")
            }
            return .alreadyPaid(try Self.paymentRecord(jws: jws, sequence: sequence, key: submission.idempotencyKey))
        }
        let account = try db.statement("SELECT balance_minor, currency FROM accounts WHERE id = ?", [submission.accountID])
        guard try account.step(), account.text(1) == submission.amount.currency.code else { return .accountMissing }
        let balance = account.int64(0)
        _ = try account.step()
        guard balance >= submission.amount.minorUnits else { return .insufficientFunds }
        try db.statement(
            "UPDATE accounts SET balance_minor = balance_minor - ? WHERE id = ?", [submission.amount.minorUnits, submission.accountID]
        ).run()
        let (entry, payload) = try append(type: "payment", db, payload: submission.makePayload)
        try db.statement(
            """
            INSERT INTO payments (idempotency_key, fingerprint, sequence, account_id, payee_contact_id, payee_handle_id,
                currency, amount_minor)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [submission.idempotencyKey, submission.fingerprint, entry.sequence, submission.accountID,
             submission.payee.contactID, submission.payee.handleID, submission.amount.currency.code, submission.amount.minorUnits]
        ).run()
        return .paid(PaymentRecord(json: payload, jws: entry.jws, sequence: entry.sequence, idempotencyKey: submission.idempotencyKey))
    }

    /// Appends a signed entry at the head of the chain, inside the caller's write transaction.
    func append(type: String, _ db: Database, payload: (LedgerPosition) -> String) throws(TenderError) -> (LedgerEntry, String) {
        let head = try db.statement("SELECT sequence, hash FROM ledger ORDER BY sequence DESC LIMIT 1")
        var position = LedgerPosition(sequence: 1, previousHash: LedgerPosition.genesisHash, createdAtMilliseconds: WallClock.nowMilliseconds())
        if try head.step() {
            position = LedgerPosition(
                sequence: head.int64(0) + 1, previousHash: head.text(1) ?? "", createdAtMilliseconds: position.createdAtMilliseconds)
            _ = try head.step()
        }
        let signer = try activeSigner(db)
        let text = payload(position)
        let jws = try CompactJWS.sign(payload: Array(text.utf8), signer: signer)
        let hash = try LedgerEntry.hash(ofJWS: jws.text, crypto: crypto)
        try db.statement("INSERT INTO ledger (sequence, type, jws, hash) VALUES (?, ?, ?, ?)", [position.sequence, type, jws.text, hash]).run()
        return (LedgerEntry(sequence: position.sequence, jws: jws.text), text)
    }

    static func paymentRecord(jws: String, sequence: Int64, key: String) throws(TenderError) -> PaymentRecord {
        let parsed = try CompactJWS(parsing: jws)
        return PaymentRecord(json: String(decoding: parsed.payload, as: UTF8.self), jws: jws, sequence: sequence, idempotencyKey: key)
    }

    public func records() throws(TenderError) -> [PaymentRecord] {
        try read { (db) throws(TenderError) in
            try db.statement(
                "SELECT l.jws, l.sequence, p.idempotency_key FROM payments p JOIN ledger l ON l.sequence = p.sequence ORDER BY l.sequence"
            ).rows { (row) throws(TenderError) in
                try Self.paymentRecord(jws: row.text(0) ?? "", sequence: row.int64(1), key: row.text(2) ?? "")
            }
        }
    }

    public func mostRecentPayee() throws(TenderError) -> RecentPayee? {
        try read { (db) throws(TenderError) in
            let row = try db.statement("SELECT payee_contact_id, payee_handle_id FROM payments ORDER BY sequence DESC LIMIT 1")
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
            let head = try db.statement("SELECT COUNT(*), (SELECT hash FROM ledger ORDER BY sequence DESC LIMIT 1) FROM ledger")
            _ = try head.step()
            let count = head.int64(0)
            let hash = head.text(1) ?? LedgerPosition.genesisHash
            _ = try head.step()
            let payload = Checkpoint.payload(count: count, headHash: hash, createdAtMilliseconds: WallClock.nowMilliseconds())
            return try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db)).text
        }
    }

    /// Verifies every entry, optionally against an earlier checkpoint. Trusts
    /// `trustedKeys` when given, else every public key this store recorded.
    /// Throws ``TenderError/ledgerTampered(_:)`` naming the first bad record.
    public func verify(checkpoint: String? = nil, trustedKeys: [String: [UInt8]]? = nil) throws(TenderError) -> LedgerVerifier.Report {
        let entries = try ledgerEntries()
        var trusted: [String: [UInt8]] = [:]
        if let trustedKeys {
            trusted = trustedKeys
        } else {
            for key in try publicKeys() { trusted[key.keyID] = key.publicKey }
        }
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: trusted)
        return try verifier.verify(entries, checkpoint: checkpoint)
    }
}
