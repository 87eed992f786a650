// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// A payment row as a status change needs it.
    private struct StoredPayment {
        let sequence: Int64
        let record: PaymentRecord
        let payload: JSONValue
        let effects: PaymentEffects?
    }

    public func changeStatus(idempotencyKey: String, to status: PaymentStatus) throws(TenderError) -> PaymentRecord {
        try write { (db) throws(TenderError) -> PaymentRecord in
            if let settled = try settleClaim(idempotencyKey, to: status, db) { return settled }
            let payment = try storedPayment(idempotencyKey, db)
            guard let intent = payment.payload["intent"]?.stringValue, let id = payment.payload["id"]?.stringValue,
                let recorded = payment.payload["status"]?.stringValue.flatMap(PaymentStatus.init(rawValue:))
            else { throw .ledgerTampered("record \(payment.sequence): a payment without intent, id or status") }
            let latest = try latestStatusEntry(of: payment.sequence, idempotencyKey, db)
            let current = latest.map(\.status) ?? recorded
            if current == status { return latest?.record ?? payment.record }
            guard PaymentStatusChange.allows(from: current, to: status) else {
                throw .wrongState("the payment \(idempotencyKey) is \(current.rawValue); only a pending payment becomes completed, canceled or failed")
            }
            guard let effects = payment.effects else {
                throw .wrongState("the payment \(idempotencyKey) was recorded before Tender kept what it moved; its status cannot change")
            }
            try apply(effects.consequences(of: status), db)
            let entry = try append(type: PaymentStatusChange.entryType, db, subject: payment.sequence, status: status.rawValue) { position in
                PaymentStatusChange.payload(
                    at: position, paymentSequence: payment.sequence, paymentID: id, intent: intent, idempotencyKey: idempotencyKey,
                    from: current, to: status)
            }
            return PaymentRecord(json: entry.payload, jws: entry.jws, sequence: entry.sequence, idempotencyKey: idempotencyKey)
        }
    }

    public func recordIntent(idempotencyKey: String, makePayload: @Sendable (LedgerPosition) -> String) throws(TenderError) -> PaymentRecord {
        try write { (db) throws(TenderError) -> PaymentRecord in
            let entry = try append(type: PaymentRecord.intentEntryType, db, payload: makePayload)
            return PaymentRecord(json: entry.payload, jws: entry.jws, sequence: entry.sequence, idempotencyKey: idempotencyKey)
        }
    }

    public func changedStatuses() throws(TenderError) -> [String: PaymentStatus] {
        try read(scan: true) { (db) throws(TenderError) -> [String: PaymentStatus] in
            var statuses: [String: PaymentStatus] = [:]
            let rows = try db.statement(
                """
                SELECT p.idempotency_key, s.status FROM ledger s JOIN ledger p ON p.sequence = s.subject
                WHERE s.subject IS NOT NULL ORDER BY s.sequence
                """)
            while try rows.step() {
                guard let key = rows.text(0), let status = rows.text(1).flatMap(PaymentStatus.init(rawValue:)) else { continue }
                statuses[key] = status
            }
            return statuses
        }
    }

    private func storedPayment(_ key: String, _ db: any StoreDatabase) throws(TenderError) -> StoredPayment {
        let row = try db.statement("SELECT sequence, jws, effects, seal FROM ledger WHERE idempotency_key = ? AND type = 'payment'", [key])
        guard try row.step(), let jws = row.text(1) else { throw .notFound("no payment was made with the idempotency key \(key)") }
        let sequence = row.int64(0)
        let effectsText = row.text(2)
        let seal = row.text(3)
        _ = try row.step()
        let record = try paymentRecord(jws: jws, seal: seal, sequence: sequence, key: key)
        let payload: JSONValue
        do throws(TenderError) { payload = try JSONParser.parse(record.json) } catch {
            throw .ledgerTampered("record \(sequence): the payload is not JSON")
        }
        // Rows written since schema 7 keep the effects only in the signed payload; older ones also in the column.
        let effects: PaymentEffects?
        if let signed = payload["ledger"]?["effects"] {
            effects = try PaymentEffects(json: signed)
        } else {
            effects = try effectsText.map { (text) throws(TenderError) in try PaymentEffects(json: try JSONParser.parse(text)) }
        }
        return StoredPayment(sequence: sequence, record: record, payload: payload, effects: effects)
    }

    /// The newest status entry of the payment at `sequence`, with the status it set.
    private func latestStatusEntry(
        of sequence: Int64, _ key: String, _ db: any StoreDatabase
    ) throws(TenderError) -> (status: PaymentStatus, record: PaymentRecord)? {
        let row = try db.statement("SELECT sequence, jws, status FROM ledger WHERE subject = ? ORDER BY sequence DESC LIMIT 1", [sequence])
        guard try row.step(), let jws = row.text(1) else { return nil }
        guard let status = row.text(2).flatMap(PaymentStatus.init(rawValue:)) else {
            throw .store("ledger entry \(row.int64(0)) has no valid status")
        }
        let record = try paymentRecord(jws: jws, seal: nil, sequence: row.int64(0), key: key)
        _ = try row.step()
        return (status, record)
    }

    /// Moves the balances and sets the bill a status change calls for; an
    /// account that no longer exists or no longer holds what it gives back refuses the change.
    private func apply(
        _ consequences: (movements: [BalanceMovement], bill: PaymentEffects.BillChange?), _ db: any StoreDatabase
    ) throws(TenderError) {
        for movement in consequences.movements {
            let account = try db.statement("SELECT balance_minor, currency FROM accounts WHERE id = ?", [movement.accountID])
            guard try account.step(), account.text(1) == movement.currency.code else {
                throw .wrongState("the account \(movement.accountID) no longer exists in \(movement.currency.code)")
            }
            let balance = account.int64(0)
            _ = try account.step()
            guard movement.delta >= 0 || balance >= -movement.delta else {
                throw .wrongState("the account \(movement.accountID) no longer holds what it would give back")
            }
            guard movement.delta <= 0 || balance <= Int64.max - movement.delta else {
                throw .wrongState("the account \(movement.accountID) cannot hold that balance")
            }
            try db.statement("UPDATE accounts SET balance_minor = balance_minor + ? WHERE id = ?", [movement.delta, movement.accountID]).run()
        }
        guard let change = consequences.bill else { return }
        let row = try db.statement("SELECT document FROM bills WHERE id = ?", [change.bill.id])
        guard try row.step(), let text = row.text(0) else { return }
        _ = try row.step()
        let bill = try Bill(json: try JSONParser.parse(text), field: "stored bill")
        guard bill.status == change.bill.status, bill.paymentDate == change.bill.on else { return }
        try Self.storeBill(bill.with(status: change.status, paymentDate: change.paymentDate), db)
    }
}
