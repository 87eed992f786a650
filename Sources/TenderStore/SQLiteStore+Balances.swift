// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Balances re-derivable from signed data: the directory's import signs the
/// balance and currency of each account it sets, and its removal each account
/// it removes, in a chained ledger entry (``BalanceAnchors``); verify replays
/// the ledger's signed effects after the latest such entry and reports every
/// account whose stored balance or currency disagrees, every account the signed
/// entries name that the directory lacks, and every account they do not know.
/// A store written before these entries kept each balance signed beside its
/// account (`balance_anchor`, a JWS naming the ledger's length then): such an
/// account is still checked against it until the directory sets it again,
/// and verify lists it as unchained (an older signed balance put back is not seen).
extension SQLiteStore {
    /// Signs, inside the caller's transaction, the balances the directory sets
    /// (`set`, in order) and the accounts it removes, as one ledger entry; nothing when both are empty.
    func anchorBalances(set: [(account: String, balance: Money)], removed: [String], _ db: any StoreDatabase) throws(TenderError) {
        guard !set.isEmpty || !removed.isEmpty else { return }
        try append(type: BalanceAnchors.entryType, db) { position in BalanceAnchors.payload(at: position, set: set, removed: removed) }
        for item in set { try db.statement("UPDATE accounts SET balance_anchor = NULL WHERE id = ?", [item.account]).run() }
    }

    /// Re-derives every account's balance from the signed ledger (or, for an
    /// account no `balances` entry set, its signed balance kept beside it);
    /// throws ``TenderError/ledgerTampered(_:)`` naming each account whose stored
    /// balance or currency disagrees, whose signed balance is missing, unsigned or
    /// signed by a key the ledger does not trust, that a signed entry removed, or
    /// that signed entries name but the directory lacks.
    /// `trustedKeys`: kid → raw public key of every key verify trusted;
    /// `verified`: the first entries' signed payloads, parsed, as ``LedgerVerifier`` left them
    /// (entries appended since are read here, in the same transaction as the balances).
    /// Returns the accounts checked against a balance kept beside them (unchained), by id.
    func verifyBalances(trustedKeys: [String: [UInt8]], verified: [JSONValue]) throws(TenderError) -> [String] {
        struct Row { let id: String; let currency: String; let balance: Int64; let anchor: String? }
        let (accounts, total, appended) = try read(scan: true) { (db) throws(TenderError) -> ([Row], Int64, [String]) in
            let accounts = try db.statement("SELECT id, currency, balance_minor, balance_anchor FROM accounts ORDER BY id").rows {
                Row(id: $0.text(0) ?? "", currency: $0.text(1) ?? "", balance: $0.int64(2), anchor: $0.text(3))
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
        guard total == Int64(verified.count + appended.count) else {
            throw .ledgerTampered("the ledger held \(verified.count) records when verified but \(total) when the balances were read")
        }
        // Every entry's signed payload; entry `i` has sequence `i + 1` (the chain was verified up to `verified.count`).
        var payloads = verified
        payloads.reserveCapacity(verified.count + appended.count)
        for text in appended {
            payloads.append(try JSONParser.parse(String(decoding: try CompactJWS(parsing: text).payload, as: UTF8.self)))
        }
        let signed = try SignedBalances(payloads: payloads)
        var disagreeing = signed.problems
        var unchained: [String] = []
        for account in accounts {
            if let known = signed.accounts[account.id] {
                if let removed = known.removedAt {
                    disagreeing.append("\(account.id) (removed by record \(removed), but in the directory)")
                } else if known.currency != account.currency {
                    disagreeing.append("\(account.id) (stored currency \(account.currency), signed \(known.currency) by record \(known.anchoredAt))")
                } else if known.balanceMinor != account.balance {
                    disagreeing.append("\(account.id) (stored \(account.balance), derived \(known.balanceMinor) minor units)")
                }
                continue
            }
            // An account no `balances` entry set: a balance signed beside it by an earlier version, or none.
            guard let text = account.anchor, let jws = try? CompactJWS(parsing: text), let key = trustedKeys[jws.keyID],
                crypto.isValidSignature(jws.signature, of: jws.signingInput, publicKey: key),
                let anchor = try? JSONParser.parse(String(decoding: jws.payload, as: UTF8.self)),
                anchor["type"]?.stringValue == "balance", anchor["account"]?.stringValue == account.id,
                case let .number(balanceText)? = anchor["balanceMinor"], let balance = Int64(balanceText),
                case let .number(afterText)? = anchor["afterSequence"], let after = Int64(afterText)
            else {
                disagreeing.append("\(account.id) (no valid signed balance)")
                continue
            }
            if let removed = signed.removedUnanchored[account.id], removed > after {
                disagreeing.append("\(account.id) (removed by record \(removed), but in the directory)")
                continue
            }
            guard anchor["currency"]?.stringValue == account.currency else {
                disagreeing.append("\(account.id) (stored currency \(account.currency), signed \(anchor["currency"]?.stringValue ?? "none"))")
                continue
            }
            let derived = SignedBalances.replay(from: balance, afterSequence: after, movements: signed.unanchoredMovements[account.id] ?? [])
            if derived != account.balance {
                disagreeing.append("\(account.id) (stored \(account.balance), derived \(derived.map(String.init) ?? "an overflow") minor units)")
                continue
            }
            unchained.append(account.id)
        }
        // Accounts the signed entries say exist that the directory lacks (a row deleted outside Tender).
        let stored = Set(accounts.map(\.id))
        for (id, known) in signed.accounts.sorted(by: { $0.key < $1.key }) where known.removedAt == nil && !stored.contains(id) {
            disagreeing.append("\(id) (set by record \(known.anchoredAt), missing from the directory)")
        }
        for (id, first) in signed.firstNamed.sorted(by: { $0.key < $1.key })
        where signed.accounts[id] == nil && signed.removedUnanchored[id] == nil && !stored.contains(id) {
            disagreeing.append("\(id) (moved by record \(first), missing from the directory)")
        }
        guard disagreeing.isEmpty else {
            throw .ledgerTampered("the stored balance disagrees with the signed ledger for: \(disagreeing.joined(separator: ", "))")
        }
        return unchained
    }
}
