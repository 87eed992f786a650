// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    public func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        let fingerprintDigest = try StoredFingerprint.digest(of: submission.fingerprint, crypto: crypto)
        // A store across a network (``preparesInFlight``) signs a quiet submitter's record in its batch's transaction,
        // while the server answers its first round trip; SQLite's before the write lock, here.
        let quiet = mayPrepare()
        let queued = QueuedSubmission(
            submission: submission, fingerprintDigest: fingerprintDigest,
            prepared: quiet && !preparesInFlight ? prepare(submission, at: expectedHead.withLock({ $0 }) ?? readExpectedHead()) : nil,
            preparesInFlight: quiet && preparesInFlight)
        return try submissions.submit(queued) { batch in commit(batch) }.get()
    }

    /// Whether a submission made now prepares its record (``prepare(_:at:)``): the store writes, no other submission
    /// is queued or being committed (``GroupCommitQueue/isQuiet``), and no record prepared lately failed to fit (``preparePause``).
    private func mayPrepare() -> Bool {
        !isReadOnly && submissions.isQuiet && preparePause.withLock({ (left: inout Int) -> Bool in
            if left > 0 { left -= 1 }
            return left == 0
        })
    }

    /// The record of `submission` built, hashed and signed now, before its batch reads the ledger's head, at `head`,
    /// the head the last batch of this store left (``expectedHead``; on SQLite read once when unknown), for a quiet
    /// submitter (``mayPrepare()``): before its batch takes the write lock on SQLite, while its transaction's first
    /// round trip travels on PostgreSQL (``preparesInFlight``). The batch inserts it signed (no seal, no later rewrite of
    /// its row) if it finds that head and that key and pays the submission, else drops it (never stored nor answered) and
    /// builds the record again. Nil when the head is unknown or anything here fails (the batch then does it all).
    private func prepare(_ submission: PaymentSubmission, at expected: ExpectedHead?) -> PreparedRecord? {
        guard let head = expected,
            let signer = head.keyIDs.lazy.compactMap({ (kid) -> (any RecordSigner)? in
                if let recorded = head.publicKeys[kid] { return try? self.keys.signer(keyID: kid, recordedPublicKey: recorded) }
                return try? self.keys.signer(keyID: kid)
            }).first
        else { return nil }
        guard let entry = try? ChainedPayload(after: (head.sequence, head.hash), at: clock.nowMilliseconds(), crypto: crypto, submission.makePayload),
            let jws = try? CompactJWS.sign(payload: entry.bytes, signer: signer)
        else { return nil }
        return PreparedRecord(position: entry.position, payload: entry.payload, hash: entry.hash, jws: jws.text, keyID: signer.keyID)
    }

    /// How many submissions after a prepared record did not fit do not prepare one (they would most likely not fit either).
    static let preparePauseSubmissions = 64

    /// The ledger's head and its enrolled keys, read in a read transaction, kept as ``expectedHead``; nil when the
    /// store has no enrolled key yet (the batch creates the first) or a read fails.
    private func readExpectedHead() -> ExpectedHead? {
        let read = try? read { (db) throws(TenderError) in
            (head: try Self.head(db), kids: try db.statement("SELECT kid FROM signing_keys WHERE active = ? ORDER BY rowid", [KeyState.enrolled]).rows {
                $0.text(0) ?? ""
            })
        }
        guard let read, !read.kids.isEmpty else { return nil }
        let head = ExpectedHead(sequence: read.head.sequence, hash: read.head.hash, keyIDs: read.kids)
        expectedHead.withLock { $0 = head }
        return head
    }

    /// A payment decided inside a batch: signed already (`jws`), or waiting for the signature at `signing` in the batch's signing order.
    private struct Pending: Sendable {
        let submission: PaymentSubmission
        let position: LedgerPosition
        let payload: String
        let hash: String
        /// The whole JWS, when the row was inserted signed (``PreparedRecord``).
        let jws: String?
        /// The index of its signature in the batch's signing, when the row was inserted unsigned.
        let signing: Int?
    }

    /// What a batch's transaction decided: an outcome for each submission paid before or refused
    /// (nil for the ones paid now), the payments committed, in ledger order, and the head and key it left.
    private struct Decided: Sendable {
        var outcomes: [Result<SubmissionOutcome, TenderError>?]
        var pending: [Pending] = []
        var pendingByKey: [String: Int] = [:]
        var duplicates: [Int] = []
        var head: ExpectedHead?
        /// Records prepared for another head or key, built again.
        var unfit = 0
    }

    /// Pays a batch in one write transaction (one flush): every submission is
    /// checked and debited in order, and its record chained and appended. A
    /// record its submitter prepared at the head the batch finds goes in
    /// signed; any other is sealed and appended without its signature, which
    /// the other cores compute meanwhile, while the commit waits for the disk.
    /// A submission is answered once its record is durable and its signature computed; those
    /// signatures are stored by the next write transaction (or signed again
    /// by the next open). If the transaction fails, every submission of the batch fails.
    /// A quiet submitter alone in its batch, on an engine that pays a signed record in one call
    /// (``StoreDatabase/payPrepared(_:)``: PostgreSQL), is paid that way first (``payInOneCall(_:)``).
    private func commit(_ batch: [QueuedSubmission]) -> [Result<SubmissionOutcome, TenderError>] {
        guard batch.count == 1, batch[0].preparesInFlight, let attempt = payInOneCall(batch[0]) else { return commitBatch(batch) }
        if let paid = attempt.paid { return [.success(paid)] }
        if let failure = attempt.failure { return [.failure(failure)] }
        // Not paid there (unfit, or its answer lost): the batch's transaction decides, its record built again under the lock.
        var again = batch[0]
        again.preparesInFlight = false
        let results = commitBatch([again])
        // Its answer lost, the call may have committed: the record found under that key is this one (its JWS), paid now.
        if let sent = attempt.sentJWS, case let .success(.alreadyPaid(record)) = results[0], record.jws == sent { return [.success(.paid(record))] }
        return results
    }

    /// A quiet submitter's payment paid in one call at the server (``StoreDatabase/payPrepared(_:)``): its record built and
    /// signed at the expected head with the key the last batch chose, then inserted by the server only when that head, that
    /// key, the unpaid idempotency key and the funds are what it finds under the person's lock. Nil when the payment does
    /// not go this way (the engine cannot, the head or key is unknown, it pays a bill, or a write transaction has more to
    /// write first: computed signatures, a testing mode's mark, a kept checkpoint); the audit entries waiting for the next
    /// write are written with the record (forgotten once it is committed, or found kept after its answer was lost). Else
    /// `paid`, or `failure` (the payment's error, as its batch's transaction would throw it), or neither when the call
    /// answered unfit or unsupported, with `sentJWS` the record sent when its answer was lost (the batch then decides).
    private func payInOneCall(_ queued: QueuedSubmission) -> (paid: SubmissionOutcome?, sentJWS: String?, failure: TenderError?)? {
        let submission = queued.submission
        guard submission.paidBill == nil, ReadPin.current(for: ObjectIdentifier(self)) == nil, checkpointFile.withLock({ $0 }) == nil,
            let head = expectedHead.withLock({ $0 }), head.keyIDs.count == 1, let publicKey = head.publicKeys[head.keyIDs[0]]
        else { return nil }
        // Under the write lock, as a write transaction reads and forgets them: the audit entries waiting for the next write go
        // with the record (none that needs the testing mode's mark first), and are forgotten once it is committed.
        let outcome = writer.withLock { (db: inout any StoreDatabase) -> (record: PreparedRecord, answer: Result<PreparedPaymentAnswer, TenderError>)? in
            let audit = pendingAudit.withLock { $0 }
            guard db.paysPrepared, computedSignatures.withLock({ $0.isEmpty }), !audit.contains(where: \.testing),
                let record = prepare(submission, at: head), record.keyID == head.keyIDs[0]
            else { return nil }
            let payment = PreparedPayment(
                previous: (head.sequence, head.hash), signerKeyID: record.keyID, signerPublicKey: publicKey, jws: record.jws, hash: record.hash,
                idempotencyKey: submission.idempotencyKey, fingerprintDigest: queued.fingerprintDigest,
                accountID: submission.movements.first?.accountID, payeeContactID: submission.payee?.contactID,
                payeeHandleID: submission.payee?.handleID, currency: submission.amount.currency.code, amountMinor: submission.amount.minorUnits,
                movements: submission.movements, paidParty: submission.paidParty, releasesClaim: submission.releasesClaim,
                audit: audit.map { ($0.at, $0.user, $0.event, $0.intent, $0.detail) })
            let connection = db
            let answer = Result { () throws(TenderError) in try connection.payPrepared(payment) }
            if case .success(.paid) = answer, !audit.isEmpty { pendingAudit.withLock { $0.removeFirst(audit.count) } }
            // Its answer lost, the call may have kept the record and these entries with it: read under the person's lock (after
            // the lost session's transaction ended) whether it did, so the batch that decides does not write them again.
            if case .failure(.outcomeUnknown) = answer, !audit.isEmpty,
                (try? Self.keeps(jws: record.jws, idempotencyKey: submission.idempotencyKey, connection)) == true
            {
                pendingAudit.withLock { $0.removeFirst(audit.count) }
            }
            return (record, answer)
        }
        guard let outcome else { return nil }
        switch outcome.answer {
        case .success(.paid):
            // The key signed, as the batch's choice of it notes (a key later removed from the store is then named so).
            noteSigner(outcome.record.keyID)
            expectedHead.withLock {
                $0 = ExpectedHead(
                    sequence: outcome.record.position.sequence, hash: outcome.record.hash, keyIDs: [outcome.record.keyID],
                    publicKeys: [outcome.record.keyID: publicKey])
            }
            let record = PaymentRecord(
                json: outcome.record.payload, jws: outcome.record.jws, sequence: outcome.record.position.sequence,
                idempotencyKey: submission.idempotencyKey)
            return (.paid(record), nil, nil)
        case .success(.unsupported):
            return (nil, nil, nil)
        case let .success(.unfit(reason)):
            // Another writer moved the head or changed the key: the next ones do not sign ahead for a while. (A key paid before
            // or a check refused leaves the head as expected: the batch answers it, as it would have.)
            if reason == "head" || reason == "key" {
                preparePause.withLock { $0 = Self.preparePauseSubmissions }
                expectedHead.withLock { $0 = nil }
            }
            return (nil, nil, nil)
        case let .failure(error):
            expectedHead.withLock { $0 = nil }
            // Only a lost answer is decided again by the batch (which finds the record if it was kept); any other error is the payment's.
            guard case .outcomeUnknown = error else { return (nil, nil, error) }
            return (nil, outcome.record.jws, nil)
        }
    }

    /// Whether the ledger holds `jws` under `idempotencyKey`, read in a write transaction of `db` (under the person's lock,
    /// so after any other transaction of theirs ended) that writes nothing, not even what waits for the store's next write.
    private static func keeps(jws: String, idempotencyKey: String, _ db: any StoreDatabase) throws(TenderError) -> Bool {
        try db.writeTransaction { () throws(TenderError) -> Bool in
            let row = try db.statement("SELECT jws FROM ledger WHERE idempotency_key = ?", [idempotencyKey])
            guard try row.step() else { return false }
            let found = row.text(0)
            _ = try row.step()
            return found == jws
        }
    }

    /// The batch's transaction (``commit(_:)``).
    private func commitBatch(_ batch: [QueuedSubmission]) -> [Result<SubmissionOutcome, TenderError>] {
        var signing: CompactJWS.Batch?
        defer { signing?.abandon() }
        do throws(TenderError) {
            let decided = try write { (db) throws(TenderError) -> Decided in
                // Every read the first submission needs is made before the first is stepped: on PostgreSQL they travel
                // together, with the transaction's opening, in one round trip (SQLite makes each when it is used, as before).
                // Only the first's: a later submission's checks must see what the ones before it wrote.
                // The keys' rows held until COMMIT where another writer may remove one meanwhile (PostgreSQL).
                let keysRead = try db.ahead(Self.signingKeysSQL + db.keysReadLock, [])
                let headRead = try db.ahead(Self.headSQL, [])
                let firstReads = try batch.first.map { (queued) throws(TenderError) in try PrecheckReads(queued.submission, db) }
                var prepared = batch.map(\.prepared)
                if let first = batch.first, first.preparesInFlight {
                    // PostgreSQL: the opening and those reads leave now, and the quiet submitter's record is signed while the server
                    // answers them, at the head this store expects (never read here: that would be a transaction of its own).
                    try db.sendAhead()
                    prepared[0] = prepare(first.submission, at: expectedHead.withLock { $0 })
                }
                let signer = try activeSigner(db, ahead: keysRead)
                // Started before the checks, as before records were prepared, so its workers are awake by the first record;
                // a batch whose every record was prepared starts one only if one of them does not fit.
                if prepared.contains(where: { $0 == nil }) { signing = CompactJWS.Batch(signer: signer, capacity: batch.count) }
                var signed = 0
                var head = try Self.head(db, ahead: headRead)
                var decided = Decided(outcomes: Array(repeating: nil, count: batch.count))
                for (index, queued) in batch.enumerated() {
                    let submission = queued.submission
                    if let earlier = decided.pendingByKey[submission.idempotencyKey] {
                        if decided.pending[earlier].submission.fingerprint == submission.fingerprint {
                            decided.duplicates.append(index)
                        } else {
                            decided.outcomes[index] = .failure(Self.conflict)
                        }
                        continue
                    }
                    var bill: String?
                    do throws(TenderError) {
                        if let outcome = try precheck(submission, index == 0 ? firstReads : nil, db, bill: &bill) {
                            decided.outcomes[index] = .success(outcome)
                            continue
                        }
                    } catch {
                        // A conflict refuses this submission only; any store error aborts the whole batch.
                        guard case .idempotencyConflict = error else { throw error }
                        decided.outcomes[index] = .failure(error)
                        continue
                    }
                    try apply(submission, bill: bill, db)
                    let entry: Pending
                    let fits = prepared[index].map {
                        $0.position.sequence == head.sequence + 1 && $0.position.previousHash == head.hash && $0.keyID == signer.keyID
                    }
                    if fits == false { decided.unfit += 1 }
                    if let prepared = prepared[index], fits == true {
                        try insertPayment(
                            submission, sequence: prepared.position.sequence, jws: prepared.jws, seal: nil, hash: prepared.hash,
                            fingerprintDigest: queued.fingerprintDigest, db)
                        entry = Pending(
                            submission: submission, position: prepared.position, payload: prepared.payload, hash: prepared.hash, jws: prepared.jws,
                            signing: nil)
                    } else {
                        let chained = try ChainedPayload(after: head, at: clock.nowMilliseconds(), crypto: crypto, submission.makePayload)
                        let batchSigning = signing ?? CompactJWS.Batch(signer: signer, capacity: batch.count)
                        signing = batchSigning
                        let input = try batchSigning.add(payload: chained.bytes)
                        try insertPayment(
                            submission, sequence: chained.position.sequence, jws: input + ".", seal: Base64URL.encode(try signer.seal(Array(input.utf8))),
                            hash: chained.hash, fingerprintDigest: queued.fingerprintDigest, db)
                        entry = Pending(
                            submission: submission, position: chained.position, payload: chained.payload, hash: chained.hash, jws: nil, signing: signed)
                        signed += 1
                    }
                    head = (entry.position.sequence, entry.hash)
                    // The host's payment and its record are never seen apart: the claim leaves in this transaction.
                    if submission.releasesClaim {
                        try db.statement("DELETE FROM claims WHERE idempotency_key = ?", [submission.idempotencyKey]).run()
                    }
                    decided.pendingByKey[submission.idempotencyKey] = decided.pending.count
                    decided.pending.append(entry)
                }
                decided.head = ExpectedHead(sequence: head.sequence, hash: head.hash, keyIDs: [signer.keyID])
                if let chosen = chosenSigner.withLock({ $0 }), chosen.kid == signer.keyID { decided.head?.publicKeys = [chosen.kid: chosen.publicKey] }
                return decided
            }
            expectedHead.withLock { $0 = decided.head }
            // Submitters met at the same head (or another writer moved it): the next ones do not sign ahead for a while.
            if decided.unfit > 0 { preparePause.withLock { $0 = Self.preparePauseSubmissions } }
            // Durable now; the signatures were being computed meanwhile.
            let jws = try signing?.finish() ?? []
            signing = nil
            let waiting = decided.pending.filter { $0.signing != nil }
            guard jws.count == waiting.count else { throw .internal("a batch got \(jws.count) signatures for \(waiting.count) records") }
            if !jws.isEmpty {
                computedSignatures.withLock { computed in
                    for entry in waiting { if let slot = entry.signing { computed[entry.position.sequence] = jws[slot] } }
                }
                // On a shared store, other machines read these records and cannot sign them again: stored now (a write stores them
                // first); should it fail, the next write stores them.
                if signaturesAtOnce.withLock({ $0 }) { _ = try? write(lazy: true) { _ in 0 } }
            }
            return batch.enumerated().map { (index, queued) in
                if let outcome = decided.outcomes[index] { return outcome }
                let submission = queued.submission
                guard let slot = decided.pendingByKey[submission.idempotencyKey] else {
                    return .failure(.internal("a submission of the batch got no outcome"))
                }
                let entry = decided.pending[slot]
                guard let text = entry.jws ?? entry.signing.map({ jws[$0] }) else { return .failure(.internal("a payment of the batch got no signature")) }
                let record = PaymentRecord(json: entry.payload, jws: text, sequence: entry.position.sequence, idempotencyKey: submission.idempotencyKey)
                return .success(decided.duplicates.contains(index) ? .alreadyPaid(record) : .paid(record))
            }
        } catch {
            expectedHead.withLock { $0 = nil }
            return batch.map { _ in .failure(error) }
        }
    }

    /// A bill's stored document, by its id (``PrecheckReads``).
    static let billSQL = "SELECT document FROM bills WHERE id = ?"
    /// An account's balance and currency, by its id (``PrecheckReads``).
    static let accountSQL = "SELECT balance_minor, currency FROM accounts WHERE id = ?"

    private static let conflict = TenderError.idempotencyConflict("this idempotency key already paid a payment with other parameters")

    /// The outcome of a submission decided without paying (paid before, its
    /// bill paid already, an account missing, funds short), or nil to pay it. `ahead`: its reads made ahead
    /// (``PrecheckReads``), else each is made here. `bill`: the stored document of the bill it pays, when there is one.
    private func precheck(
        _ submission: PaymentSubmission, _ ahead: PrecheckReads?, _ db: any StoreDatabase, bill: inout String?
    ) throws(TenderError) -> SubmissionOutcome? {
        let reads: PrecheckReads
        if let ahead { reads = ahead } else { reads = try PrecheckReads(submission, db) }
        if let existing = try payment(idempotencyKey: submission.idempotencyKey, row: try reads.payment.statement()) {
            guard try existing.fingerprint.matches(submission.fingerprint, crypto: crypto) else { throw Self.conflict }
            return .alreadyPaid(existing.record)
        }
        if let billRead = reads.bill {
            // Two sessions (two keys) confirming the same bill must not both pay it.
            let row = try billRead.statement()
            if try row.step(), let text = row.text(0) {
                _ = try row.step()
                bill = text
                guard try Bill(json: try JSONParser.parse(text), field: "stored bill").status == .unpaid else { return .billSettled }
            }
        }
        for (movement, accountRead) in zip(submission.movements, reads.accounts) {
            let account = try accountRead.statement()
            guard try account.step(), account.text(1) == movement.currency.code else { return .accountMissing }
            let balance = account.int64(0)
            _ = try account.step()
            if movement.delta < 0, balance < -movement.delta { return .insufficientFunds }
        }
        return nil
    }

    /// Moves the balances and marks the paid bill (`bill`, its stored document as ``precheck(_:_:_:bill:)`` read it,
    /// nil when it is not stored), inside the batch's transaction.
    private func apply(_ submission: PaymentSubmission, bill: String?, _ db: any StoreDatabase) throws(TenderError) {
        for movement in submission.movements {
            try db.statement("UPDATE accounts SET balance_minor = balance_minor + ? WHERE id = ?", [movement.delta, movement.accountID]).run()
        }
        guard let paid = submission.paidBill, let text = bill else { return }
        let stored = try Bill(json: try JSONParser.parse(text), field: "stored bill")
        try Self.storeBill(stored.with(status: paid.status, paymentDate: paid.on), db)
    }

    /// Inserts a payment's row: `jws` the signed record, or its signing input and a dot with its `seal`. The
    /// fingerprint is kept as its digest (`fingerprintDigest`) and the effects only in the signed payload
    /// (``StoredFingerprint``), so a row stays near half a page and two share one.
    private func insertPayment(
        _ submission: PaymentSubmission, sequence: Int64, jws: String, seal: String?, hash: String, fingerprintDigest: [UInt8],
        _ db: any StoreDatabase
    ) throws(TenderError) {
        try db.statement(
            """
            INSERT INTO ledger (sequence, type, jws, seal, hash, idempotency_key, fingerprint, account_id, payee_contact_id,
                payee_handle_id, currency, amount_minor)
            VALUES (?, 'payment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [sequence, jws, seal, hash, submission.idempotencyKey,
             fingerprintDigest, submission.movements.first?.accountID, submission.payee?.contactID, submission.payee?.handleID,
             submission.amount.currency.code, submission.amount.minorUnits]
        ).run()
        if let party = submission.paidParty {
            try db.statement(
                "INSERT INTO paid_parties (party, first_sequence) VALUES (?, ?) ON CONFLICT (party) DO NOTHING", [party, sequence]
            ).run()
        }
    }

    /// Appends one payment signed now, not through a batch (a claim settled by `tender status`), inside the
    /// caller's write transaction: moves its balances, marks its bill and removes its claim when it held one.
    func appendPayment(_ submission: PaymentSubmission, _ db: any StoreDatabase) throws(TenderError) -> PaymentRecord {
        var bill: String?
        if let paid = submission.paidBill {
            let row = try db.statement(Self.billSQL, [paid.id])
            if try row.step() {
                bill = row.text(0)
                _ = try row.step()
            }
        }
        try apply(submission, bill: bill, db)
        expectedHead.withLock { $0 = nil }
        let entry = try ChainedPayload(after: try Self.head(db), at: clock.nowMilliseconds(), crypto: crypto, submission.makePayload)
        let jws = try CompactJWS.sign(payload: entry.bytes, signer: try activeSigner(db)).text
        try insertPayment(
            submission, sequence: entry.position.sequence, jws: jws, seal: nil, hash: entry.hash,
            fingerprintDigest: try StoredFingerprint.digest(of: submission.fingerprint, crypto: crypto), db)
        if submission.releasesClaim {
            try db.statement("DELETE FROM claims WHERE idempotency_key = ?", [submission.idempotencyKey]).run()
        }
        return PaymentRecord(json: entry.payload, jws: jws, sequence: entry.position.sequence, idempotencyKey: submission.idempotencyKey)
    }

    /// The last entry's sequence and hash (0 and the genesis hash for an empty ledger).
    /// `ahead`: the read of ``headSQL`` the caller made already (``StoreDatabase/ahead(_:_:)``), else it is made here.
    static func head(_ db: any StoreDatabase, ahead: AheadRead? = nil) throws(TenderError) -> (sequence: Int64, hash: String) {
        let head: any StoreStatement
        if let ahead { head = try ahead.statement() } else { head = try db.statement(headSQL) }
        guard try head.step() else { return (0, LedgerPosition.genesisHash) }
        let result = (head.int64(0), head.text(1) ?? "")
        _ = try head.step()
        guard result.0 >= 0, result.0 < Int64.max / 2 else { throw .store("the ledger's last sequence number is out of range") }
        return result
    }

    /// The ledger's last entry: ``head(_:ahead:)``'s read.
    static let headSQL = "SELECT sequence, hash FROM ledger ORDER BY sequence DESC LIMIT 1"

    /// Appends one signed non-payment entry at the head, inside the caller's
    /// write transaction; a status entry also stores its payment's sequence
    /// (`subject`) and the status it sets. Returns the entry's sequence, payload and JWS.
    @discardableResult
    func append(
        type: String, _ db: any StoreDatabase, subject: Int64? = nil, status: String? = nil, payload: (LedgerPosition) -> String
    ) throws(TenderError) -> (sequence: Int64, payload: String, jws: String) {
        // The next payment's record goes after this entry: one prepared for the head before it would be built again.
        expectedHead.withLock { $0 = nil }
        let entry = try ChainedPayload(after: try Self.head(db), at: clock.nowMilliseconds(), crypto: crypto, payload)
        let jws = try CompactJWS.sign(payload: entry.bytes, signer: try activeSigner(db))
        try db.statement(
            "INSERT INTO ledger (sequence, type, jws, hash, subject, status) VALUES (?, ?, ?, ?, ?, ?)",
            [entry.position.sequence, type, jws.text, entry.hash, subject, status]
        ).run()
        return (entry.position.sequence, entry.payload, jws.text)
    }

    /// The record of a stored payment row (`seal` non-nil while its signature is not stored yet).
    func paymentRecord(jws stored: String, seal: String?, sequence: Int64, key: String) throws(TenderError) -> PaymentRecord {
        let jws = try completedJWS(stored, seal: seal, sequence: sequence)
        let parsed = try CompactJWS(parsing: jws)
        return PaymentRecord(json: String(decoding: parsed.payload, as: UTF8.self), jws: jws, sequence: sequence, idempotencyKey: key)
    }

    public func records() throws(TenderError) -> [PaymentRecord] {
        let rows = try read(scan: true) { (db) throws(TenderError) in
            try db.statement("SELECT jws, sequence, idempotency_key, seal FROM ledger WHERE type = 'payment' ORDER BY sequence").rows {
                (jws: $0.text(0) ?? "", sequence: $0.int64(1), key: $0.text(2) ?? "", seal: $0.text(3))
            }
        }
        var records: [PaymentRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try paymentRecord(jws: row.jws, seal: row.seal, sequence: row.sequence, key: row.key)) }
        return records
    }

    /// A row keeping only the fingerprint's digest gives the text from its
    /// signed payload (a format-2 record's rebuilt from its members, ``PaymentFingerprint``); throws ``TenderError/ledgerTampered(_:)`` when the
    /// payload does not carry a fingerprint with that digest.
    public func payment(idempotencyKey: String) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)? {
        guard let found = try read({ (db) throws(TenderError) in try payment(idempotencyKey: idempotencyKey, db) }) else { return nil }
        switch found.fingerprint {
        case let .text(text): return (text, found.record)
        case let .digest(digest):
            let payload = try? JSONParser.parse(found.record.json)
            let signed = payload?["ledger"]?["fingerprint"]?.stringValue
            if let payload, payload[RecordFormat.member] != nil {
                // Format 2 signs the digest; the canonical text is rebuilt from the record's own members.
                guard let signed, Base64URL.decode(signed) == digest, let canonical = PaymentFingerprint.canonicalText(ofRecord: payload),
                    try found.fingerprint.matches(canonical, crypto: crypto)
                else {
                    throw .ledgerTampered("record \(found.record.sequence): its signed payload does not carry the fingerprint its row keeps")
                }
                return (canonical, found.record)
            }
            guard let signed, try found.fingerprint.matches(signed, crypto: crypto) else {
                throw .ledgerTampered("record \(found.record.sequence): its signed payload does not carry the fingerprint its row keeps")
            }
            return (signed, found.record)
        }
    }

    /// The payment made under `idempotencyKey` and its fingerprint as stored, inside the caller's transaction.
    private func payment(idempotencyKey: String, _ db: any StoreDatabase) throws(TenderError) -> (fingerprint: StoredFingerprint, record: PaymentRecord)? {
        try payment(idempotencyKey: idempotencyKey, row: try db.statement(Self.paymentSQL, [idempotencyKey]))
    }

    /// The payment's row by its idempotency key: ``payment(idempotencyKey:row:)``'s read, its one argument the key.
    static let paymentSQL = "SELECT fingerprint, jws, sequence, seal FROM ledger WHERE idempotency_key = ?"

    /// The payment made under `idempotencyKey` as `row`, the read of ``paymentSQL`` for that key, answers it.
    private func payment(
        idempotencyKey: String, row: any StoreStatement
    ) throws(TenderError) -> (fingerprint: StoredFingerprint, record: PaymentRecord)? {
        guard try row.step(), let fingerprint = StoredFingerprint(row, column: 0) else { return nil }
        let stored = (jws: row.text(1) ?? "", sequence: row.int64(2), seal: row.text(3))
        _ = try row.step()
        return (fingerprint, try paymentRecord(jws: stored.jws, seal: stored.seal, sequence: stored.sequence, key: idempotencyKey))
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
    /// A record stored without its signature is given its JWS as the store
    /// completes it (``completedJWS(_:seal:sequence:)``); throws when that fails.
    public func ledgerEntries() throws(TenderError) -> [LedgerEntry] {
        var unsigned: [(index: Int, seal: String)] = []
        var entries = try read(scan: true) { (db) throws(TenderError) in
            try db.statement("SELECT sequence, jws, seal FROM ledger ORDER BY sequence").rows { row in
                let entry = LedgerEntry(sequence: row.int64(0), jws: row.text(1) ?? "")
                if let seal = row.text(2) { unsigned.append((Int(entry.sequence), seal)) }
                return entry
            }
        }
        for (index, entry) in entries.enumerated() where !unsigned.isEmpty {
            guard let mark = unsigned.first(where: { $0.index == Int(entry.sequence) }) else { continue }
            entries[index] = LedgerEntry(sequence: entry.sequence, jws: try completedJWS(entry.jws, seal: mark.seal, sequence: entry.sequence))
        }
        return entries
    }

    /// A signed checkpoint of the ledger as it stands: its length, head hash and the key that signed its first record.
    public func checkpoint() throws(TenderError) -> String {
        try write { (db) throws(TenderError) in
            let count = try db.statement("SELECT COUNT(*) FROM ledger")
            _ = try count.step()
            let total = count.int64(0)
            _ = try count.step()
            let payload = Checkpoint.payload(
                count: total, headHash: try Self.head(db).hash, createdAtMilliseconds: clock.nowMilliseconds(),
                firstKeyID: try Self.firstKeyID(db))
            return try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db)).text
        }
    }

    /// The id of the key that signed the ledger's first record (nil for an empty ledger), which a checkpoint names so
    /// that the records signed again by another first key do not meet it.
    static func firstKeyID(_ db: any StoreDatabase) throws(TenderError) -> String? {
        let first = try db.statement("SELECT jws FROM ledger WHERE sequence = 1").rows { $0.text(0) ?? "" }.first
        return try first.map { (text) throws(TenderError) in try CompactJWS(parsing: text).keyID }
    }

    /// Verifies every entry, optionally against an earlier checkpoint (without one, the checkpoint
    /// kept at the configured `"checkpointPath"`, when there is one: ``keepCheckpoint(at:home:)``). The
    /// root of trust is `trustedKeys` when given (a pinned key), else the first
    /// key this store recorded; later keys are trusted only through signed rotations.
    /// Then checks every column kept beside the records against their signed
    /// payloads (``verifyColumns(payloads:hashes:)``), and re-derives every account's balance
    /// and currency from the signed ledger (``verifyBalances(trustedKeys:verified:)``); the report lists the
    /// accounts whose balance was signed beside them by an earlier version (`unchainedBalances`).
    /// A record whose signature is not stored yet is verified with the one
    /// its seal lets the store compute; the report lists it (`resigned`),
    /// with the records an open signed again after a crash.
    /// Throws ``TenderError/ledgerTampered(_:)`` naming the first bad record. `progress` is told
    /// how far the signed chain's verification went (``LedgerVerifier/Progress``).
    public func verify(
        checkpoint: String? = nil, trustedKeys: [String: [UInt8]]? = nil, progress: LedgerVerifier.Progress? = nil
    ) throws(TenderError) -> LedgerVerifier.Report {
        let signedNow = try read { (db) throws(TenderError) in
            try db.statement("SELECT sequence FROM ledger WHERE seal IS NOT NULL").rows { $0.int64(0) }
        }
        let entries = try ledgerEntries()
        var trusted: [String: [UInt8]] = [:]
        if let trustedKeys {
            trusted = trustedKeys
        } else {
            if let first = try publicKeys().first { trusted[first.keyID] = first.publicKey }
        }
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: trusted)
        var against = checkpoint
        if against == nil { against = try keptCheckpoint() }
        var report = try verifier.verify(entries, checkpoint: against, progress: progress)
        try verifyColumns(payloads: verifier.payloads, hashes: verifier.hashes)
        report.unchainedBalances = try verifyBalances(trustedKeys: verifier.trustedKeys, verified: verifier.payloads)
        // Not the ones this store computed itself and will store with its next write: those are not signed again.
        let computed = computedSignatures.withLock { Set($0.keys) }
        report.resigned = Array(Set(try resignedRecords() + signedNow.filter { !computed.contains($0) })).sorted()
        return report
    }
}
