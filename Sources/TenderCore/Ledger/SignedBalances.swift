// SPDX-License-Identifier: Apache-2.0
/// What the signed ledger says each account holds: the latest `balances`
/// entry that set it (``BalanceAnchors``) plus the signed movements of the
/// payments and status changes after it, and whether an entry removed it since.
/// Pure; built from the payloads ``LedgerVerifier`` verified, in order (entry `i` has sequence `i + 1`).
public struct SignedBalances: Sendable {
    /// An account as the ledger's entries leave it.
    public struct Account: Equatable, Sendable {
        /// The currency its latest `balances` entry signed.
        public let currency: String
        /// That balance plus every signed movement after it, in minor units.
        public var balanceMinor: Int64
        /// The sequence of the entry that set it last.
        public let anchoredAt: Int64
        /// The sequence of the entry that removed it since, if one did.
        public var removedAt: Int64?
    }

    /// The accounts a `balances` entry set, by id.
    public private(set) var accounts: [String: Account] = [:]
    /// For an account no `balances` entry set (yet): its signed movements, by entry sequence, so a
    /// balance signed beside the account by an earlier version (``replay(from:afterSequence:movements:)``) can be replayed.
    public private(set) var unanchoredMovements: [String: [(sequence: Int64, delta: Int64)]] = [:]
    /// Accounts no `balances` entry set (their balance was signed beside them by an earlier version)
    /// that an entry removed, with its sequence.
    public private(set) var removedUnanchored: [String: Int64] = [:]
    /// The first entry whose signed effects name each account.
    public private(set) var firstNamed: [String: Int64] = [:]
    /// Contradictions inside the signed entries themselves (a movement in another currency than the account's), in order.
    public private(set) var problems: [String] = []

    /// Replays `payloads`; throws ``TenderError/store(_:)`` when a signed effect is malformed.
    public init(payloads: [JSONValue]) throws(TenderError) {
        for (index, payload) in payloads.enumerated() {
            let sequence = Int64(index) + 1
            switch payload["type"]?.stringValue {
            case BalanceAnchors.entryType:
                try anchor(payload, at: sequence)
            case "payment":
                move(try Self.effects(payload)?.movements ?? [], at: sequence)
            case PaymentStatusChange.entryType:
                guard case let .number(subject)? = payload["payment"], let paid = Int64(subject), paid >= 1, paid <= Int64(payloads.count),
                    let status = payload["status"]?.stringValue.flatMap(PaymentStatus.init(rawValue:))
                else { continue }
                move(try Self.effects(payloads[Int(paid) - 1])?.consequences(of: status).movements ?? [], at: sequence)
            default:
                continue
            }
        }
    }

    /// A balance signed beside the account (schema 5 to 7: `afterSequence` names the ledger's length then)
    /// plus the signed movements after it; nil on overflow.
    public static func replay(from balance: Int64, afterSequence: Int64, movements: [(sequence: Int64, delta: Int64)]) -> Int64? {
        var total = balance
        for movement in movements where movement.sequence > afterSequence {
            let (sum, overflow) = total.addingReportingOverflow(movement.delta)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    private static func effects(_ payload: JSONValue) throws(TenderError) -> PaymentEffects? {
        guard let effects = payload["ledger"]?["effects"] else { return nil }
        return try PaymentEffects(json: effects)
    }

    private mutating func anchor(_ payload: JSONValue, at sequence: Int64) throws(TenderError) {
        if case let .array(items)? = payload["accounts"] {
            for item in items {
                guard let id = item["account"]?.stringValue, let currency = item["currency"]?.stringValue,
                    case let .number(text)? = item["balanceMinor"], let balance = Int64(text)
                else { throw .store("record \(sequence): a malformed signed balance") }
                accounts[id] = Account(currency: currency, balanceMinor: balance, anchoredAt: sequence, removedAt: nil)
                unanchoredMovements[id] = nil
                removedUnanchored[id] = nil
            }
        }
        if case let .array(ids)? = payload["removed"] {
            for id in ids {
                guard let id = id.stringValue else { throw .store("record \(sequence): a malformed signed removal") }
                if accounts[id] != nil { accounts[id]?.removedAt = sequence } else { removedUnanchored[id] = sequence }
            }
        }
    }

    private mutating func move(_ movements: [BalanceMovement], at sequence: Int64) {
        for movement in movements {
            let id = movement.accountID
            if firstNamed[id] == nil { firstNamed[id] = sequence }
            guard var account = accounts[id] else {
                unanchoredMovements[id, default: []].append((sequence, movement.delta))
                continue
            }
            if account.currency != movement.currency.code {
                problems.append("\(id) (record \(sequence) moves \(movement.currency.code), its signed currency is \(account.currency))")
            }
            if let removed = account.removedAt { problems.append("\(id) (record \(sequence) moves it after its removal by record \(removed))") }
            let (sum, overflow) = account.balanceMinor.addingReportingOverflow(movement.delta)
            if overflow { problems.append("\(id) (record \(sequence) overflows its balance)") } else { account.balanceMinor = sum }
            accounts[id] = account
        }
    }
}
