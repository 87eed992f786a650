// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// Settles a claim whose outcome is unknown (the host was asked to pay under `key` and the session
    /// asking it ended before recording the answer), inside the caller's write transaction: `completed`
    /// records the payment the session would have recorded (a signed `payment` entry carrying
    /// `"settled": "status"`, its effects applied) and removes the claim; `failed` or `canceled` records
    /// nothing and marks the claim failed, so a later handle under the key asks the host again, and
    /// answers `{"type": "claim", "idempotencyKey", "status": "failed"}` with no JWS. Nil when the key has a
    /// payment or no claim (the usual status change then). Throws ``TenderError/ledgerTampered(_:)`` for a claim
    /// whose seal does not check (``checkClaimSeal(_:_:_:)``), settling nothing; ``TenderError/wrongState(_:)`` while a
    /// session is asking the host under the key, or for a pending status; ``TenderError/notFound(_:)`` when
    /// the host answered a failure under it (nothing was paid).
    func settleClaim(_ key: String, to status: PaymentStatus, _ db: any StoreDatabase) throws(TenderError) -> PaymentRecord? {
        let paid = try db.statement("SELECT 1 FROM ledger WHERE idempotency_key = ? AND type = 'payment'", [key])
        let recorded = try paid.step()
        _ = try recorded ? paid.step() : false
        guard !recorded, let claim = try storedClaim(key, db) else { return nil }
        guard claim.state == "calling" else {
            throw .notFound("no payment was made with the idempotency key \(key): the host answered \(claim.code.name)")
        }
        guard !Self.isHeld(claim) else {
            throw .wrongState("a session is asking the host to pay under the idempotency key \(key) now; wait for its answer")
        }
        // Its body becomes a signed record: only a claim Tender wrote, sealed by the key signing now, is settled either way.
        try checkClaimSeal(key, claim, db)
        switch status {
        case .completed:
            return try recordSettled(key, claim, db)
        case .failed, .canceled:
            try db.statement("UPDATE claims SET state = 'failed', code = ? WHERE idempotency_key = ?", [Int64(ResponseCode.failure.rawValue), key])
                .run()
            let json = JSONWriter.string(.object([("type", .string("claim")), ("idempotencyKey", .string(key)), ("status", .string(status.rawValue))]))
            return PaymentRecord(json: json, jws: "", sequence: 0, idempotencyKey: key)
        default:
            throw .wrongState("the host's answer under the idempotency key \(key) is unknown: settle it as completed or failed")
        }
    }

    /// Appends the claimed payment, signed now, with the columns and effects its signed `"ledger"` member names.
    /// A claim moving a balance kept here is refused (``TenderError/ledgerTampered(_:)``): Tender writes none.
    /// A claim an earlier version kept holds a format-1 record: it is written in format 2 (``RecordFormat``), as
    /// every new record is, so the ledger never goes back to format 1.
    private func recordSettled(_ key: String, _ claim: StoredClaim, _ db: any StoreDatabase) throws(TenderError) -> PaymentRecord {
        let parsed: JSONValue
        do throws(TenderError) { parsed = try JSONParser.parse("{" + claim.body + "}") } catch {
            throw .store("the claim under the idempotency key \(key) keeps a record that is not JSON")
        }
        let formatTwo = parsed[RecordFormat.member] != nil
        let signedKey = formatTwo ? parsed["idempotencyKey"] : parsed["ledger"]?["idempotencyKey"]
        let fingerprint = formatTwo ? PaymentFingerprint.digest(ofCanonical: claim.fingerprint) : claim.fingerprint
        guard let columns = parsed["ledger"], signedKey?.stringValue == key, columns["fingerprint"]?.stringValue == fingerprint,
            let code = columns["currency"]?.stringValue, case let .number(minorText)? = columns["amountMinor"], let minor = Int64(minorText),
            let effectsJSON = columns["effects"], let members = parsed.objectMembers
        else { throw .store("the claim under the idempotency key \(key) keeps a record without its ledger columns") }
        let effects = try PaymentEffects(json: effectsJSON)
        // Tender claims a key only when the host moves the money, so a claim it wrote moves no balance kept here. One that
        // does was written into the store by someone else: settling it would sign their record and move their balances.
        guard effects.movements.isEmpty, effects.onCompletion.isEmpty else {
            throw .ledgerTampered(
                "the claim under the idempotency key \(key) moves balances kept in the store, which no claim Tender writes does "
                    + "(the host moves the money): the store was edited; it is not settled")
        }
        let amount = try Money(minorUnits: minor, currency: try Currency(code: code))
        var body = Array(claim.body.utf8)
        if !formatTwo {
            body = JSONWriter.members(
                [(RecordFormat.member, .number(String(RecordFormat.current)))] + members.filter { $0.key != "ledger" }
                    + [("ledger", PaymentSubmission.ledgerColumns(fingerprint: claim.fingerprint, amount: amount, effects: effects))])
        }
        body += Array(",".utf8) + JSONWriter.members([("settled", .string("status"))])
        let payee: RecentPayee?
        if formatTwo {
            payee = RecordFormat.recentPayee(ofFormatTwo: parsed)
        } else {
            payee = columns["payeeContact"]?.stringValue.flatMap { contact in
                columns["payeeHandle"]?.stringValue.map { RecentPayee(contactID: contact, handleID: $0) }
            }
        }
        let submission = PaymentSubmission(
            idempotencyKey: key, fingerprint: claim.fingerprint, amount: amount, movements: effects.movements, payee: payee,
            paidBill: effects.bill, completionMovements: effects.onCompletion, releasesClaim: true
        ) { [body] position in position.payload(type: "payment", body: body) }
        for movement in effects.movements where movement.delta < 0 {
            let account = try db.statement("SELECT balance_minor, currency FROM accounts WHERE id = ?", [movement.accountID])
            guard try account.step(), account.text(1) == movement.currency.code, account.int64(0) >= -movement.delta else {
                throw .wrongState("the account \(movement.accountID) no longer holds what the payment under \(key) moves")
            }
            _ = try account.step()
        }
        return try appendPayment(submission, db)
    }
}
