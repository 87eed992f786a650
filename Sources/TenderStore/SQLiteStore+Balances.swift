// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Balances re-derivable from signed data: the directory's import signs each
/// account's balance as it sets it (a "balance anchor" JWS naming the ledger's
/// length then); verify replays the ledger's signed effects after the anchor
/// and reports every account whose stored balance disagrees.
extension SQLiteStore {
    /// Signs `balance` as the balance of `accountID` at the ledger's current head, inside the caller's transaction.
    func anchorBalance(_ accountID: String, _ balance: Money, _ db: Database) throws(TenderError) {
        let head = try Self.head(db).sequence
        let payload = JSONWriter.string(.object([
            ("type", .string("balance")), ("account", .string(accountID)), ("currency", .string(balance.currency.code)),
            ("balanceMinor", .number(String(balance.minorUnits))), ("afterSequence", .number(String(head))),
        ]))
        let jws = try CompactJWS.sign(payload: Array(payload.utf8), signer: try activeSigner(db))
        try db.statement("UPDATE accounts SET balance_anchor = ? WHERE id = ?", [jws.text, accountID]).run()
    }

    /// Re-derives every account's balance from its signed anchor and the
    /// ledger's signed effects; throws ``TenderError/ledgerTampered(_:)``
    /// naming each account whose stored balance disagrees, or whose anchor is
    /// missing, unsigned or signed by a key the ledger does not trust.
    /// `trustedKeys`: kid → raw public key of every key verify trusted;
    /// `verified`: the first entries' signed payloads, parsed, as ``LedgerVerifier`` left them
    /// (entries appended since are read here, in the same transaction as the balances).
    func verifyBalances(trustedKeys: [String: [UInt8]], verified: [JSONValue]) throws(TenderError) {
        struct Row { let id: String; let balance: Int64; let anchor: String? }
        let (accounts, total, appended) = try read(scan: true) { (db) throws(TenderError) -> ([Row], Int64, [String]) in
            let accounts = try db.statement("SELECT id, balance_minor, balance_anchor FROM accounts ORDER BY id").rows {
                Row(id: $0.text(0) ?? "", balance: $0.int64(1), anchor: $0.text(2))
            }
            let count = try db.statement("SELECT COUNT(*) FROM ledger")
            _ = try count.step()
            let total = count.int64(0)
            _ = try count.step()
            let appended = try db.statement("SELECT jws FROM ledger WHERE sequence > ? ORDER BY sequence", [Int64(verified.count)]).rows {
                $0.text(0) ?? ""
            }
            return (accounts, total, appended)
        }
        guard !accounts.isEmpty else { return }
        guard total == Int64(verified.count + appended.count) else {
            throw .ledgerTampered("the ledger held \(verified.count) records when verified but \(total) when the balances were read")
        }
        // Every entry's signed payload; entry `i` has sequence `i + 1` (the chain was verified up to `verified.count`).
        var payloads = verified
        payloads.reserveCapacity(verified.count + appended.count)
        for text in appended {
            payloads.append(try JSONParser.parse(String(decoding: try CompactJWS(parsing: text).payload, as: UTF8.self)))
        }
        func effects(_ payload: JSONValue?) throws(TenderError) -> PaymentEffects? {
            guard let effects = payload?["ledger"]?["effects"] else { return nil }
            return try PaymentEffects(json: effects)
        }
        var disagreeing: [String] = []
        for account in accounts {
            guard let text = account.anchor, let jws = try? CompactJWS(parsing: text), let key = trustedKeys[jws.keyID],
                crypto.isValidSignature(jws.signature, of: jws.signingInput, publicKey: key),
                let anchor = try? JSONParser.parse(String(decoding: jws.payload, as: UTF8.self)),
                anchor["account"]?.stringValue == account.id,
                case let .number(balanceText)? = anchor["balanceMinor"], var balance = Int64(balanceText),
                case let .number(afterText)? = anchor["afterSequence"], let after = Int64(afterText)
            else {
                disagreeing.append("\(account.id) (no valid signed balance)")
                continue
            }
            for index in Int(min(max(after, 0), Int64(payloads.count)))..<payloads.count {
                let payload: JSONValue? = payloads[index]
                var movements: [BalanceMovement] = []
                switch payload?["type"]?.stringValue {
                case "payment":
                    movements = try effects(payload)?.movements ?? []
                case PaymentStatusChange.entryType:
                    guard case let .number(subject)? = payload?["payment"], let paid = Int64(subject),
                        let status = payload?["status"]?.stringValue.flatMap(PaymentStatus.init(rawValue:))
                    else { continue }
                    let paidPayload: JSONValue? = paid >= 1 && paid <= Int64(payloads.count) ? payloads[Int(paid) - 1] : nil
                    movements = try effects(paidPayload)?.consequences(of: status).movements ?? []
                default:
                    continue
                }
                for movement in movements where movement.accountID == account.id { balance += movement.delta }
            }
            if balance != account.balance { disagreeing.append("\(account.id) (stored \(account.balance), derived \(balance) minor units)") }
        }
        guard disagreeing.isEmpty else {
            throw .ledgerTampered("the stored balance disagrees with the signed ledger for: \(disagreeing.joined(separator: ", "))")
        }
    }
}
