// SPDX-License-Identifier: Apache-2.0
/// Verifies a whole ledger with public keys alone: every signature, every
/// sequence number, every link to the previous entry, every key rotation,
/// and optionally an earlier checkpoint. Pure; the crypto comes through a port.
///
/// Trust follows the chain: the first entry must be signed by a trusted
/// root key; every later entry by the key that was signing at that point; a
/// rotation entry, signed by the outgoing key, hands signing to the new key
/// from the next entry on. A retired key can no longer sign, and a new key
/// cannot sign anything before its rotation. Several keys may sign at once
/// (one per machine on a shared store): a `key_added` entry (``KeyEnrollment``),
/// signed by a key signing then, adds one; a `key_revoked` entry, signed by a key
/// that enrolled it (or its enroller), takes one out with every key it enrolled,
/// so a key never outlives, through keys it enrolled, its own revocation.
///
/// Payment records come in two formats (``RecordFormat``), both verified: a
/// format-2 record's fingerprint must be the SHA-256 of the parameters it keeps,
/// and once one is in the chain no format-1 record may follow.
///
/// Two passes: the chain (positions, links, rotations) is walked in order,
/// then every signature up to the first broken link is checked as one batch,
/// which the crypto port may spread over several cores. The first bad
/// entry of either pass is the one reported.
public struct LedgerVerifier {
    /// What a successful verification saw.
    public struct Report: Equatable, Sendable {
        public let count: Int64
        public let headHash: String
        /// Every key that signed, in order of first use.
        public let keyIDs: [String]
        /// The records whose signature was computed again after their commit
        /// (their committing process ended before storing it), in order; set by the store.
        public var resigned: [Int64] = []
        /// The `testing_mode` entries (``TestingModeMark``): an engine in testing mode paid after each, in order.
        public var testingMode: [Int64] = []
        /// The accounts whose balance rests on a balance signed beside the account by a version before
        /// `balances` entries, which the chain does not order (an older one put back is not seen); set by the store.
        public var unchainedBalances: [String] = []

        public var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("valid", .bool(true)), ("records", .number(String(count))), ("headHash", .string(headHash)),
                ("keys", .array(keyIDs.map(JSONValue.string))),
            ]
            if !resigned.isEmpty { members.append(("resigned", .array(resigned.map { .number(String($0)) }))) }
            if !testingMode.isEmpty { members.append(("testingMode", .array(testingMode.map { .number(String($0)) }))) }
            if !unchainedBalances.isEmpty { members.append(("unchainedBalances", .array(unchainedBalances.map(JSONValue.string)))) }
            return .object(members)
        }
    }

    private let crypto: any LedgerCrypto
    private let roots: [String: [UInt8]]
    /// The keys signing at the current point of the walk (kid → public key), once the first entry named the first.
    private var signing: [String: [UInt8]] = [:]
    /// Which signing key enrolled each key a `key_added` entry brought in (kid → enrolling kid).
    private var enrolledBy: [String: String] = [:]
    /// Keys revoked so far: never enrolled again.
    private var revoked: Set<String> = []
    /// Every key that signed at some point, for checkpoints.
    private var history: [String: [UInt8]] = [:]
    /// When each key signed, as ledger lengths: it signed after `from` entries and, once taken out (rotated away or
    /// revoked) by entry `until`, no more after `until` entries. A checkpoint of `count` entries is accepted only from a
    /// key signing at that length, so a revoked or retired key cannot vouch for what came after it.
    private var spans: [String: [(from: Int64, until: Int64?)]] = [:]
    /// The sequences of the `testing_mode` entries walked so far.
    private var testingMarks: [Int64] = []
    /// Every payment's idempotency key and latest status, by sequence, for the status changes that name them.
    private var payments: [Int64: (key: String, status: String)] = [:]
    /// The sequence of the first format-2 payment record walked (``RecordFormat``): no format-1 one may follow it.
    private var formatTwoSince: Int64?
    /// After a successful ``verify(_:checkpoint:progress:)``: entry `i`'s signed payload, parsed, and its hash,
    /// so the store checks its columns and balances without parsing each record again.
    public private(set) var payloads: [JSONValue] = []
    /// After a successful ``verify(_:checkpoint:progress:)``: entry `i`'s hash (``LedgerEntry/hash(ofPayload:crypto:)``).
    public private(set) var hashes: [String] = []

    /// After ``verify(_:checkpoint:)``: every key it trusted (the roots, and each key a verified rotation handed over to).
    public var trustedKeys: [String: [UInt8]] { roots.merging(history) { _, rotated in rotated } }

    /// A verifier whose root keys are `trustedKeys` (kid → raw Ed25519 public key).
    public init(crypto: any LedgerCrypto, trustedKeys: [String: [UInt8]]) {
        self.crypto = crypto
        self.roots = trustedKeys
    }

    /// Told how far verification went: `done` of `total` steps (two per entry: its place in the
    /// chain, then its signature). Called on the verifying thread, often; keep it cheap.
    public typealias Progress = (_ done: Int, _ total: Int) -> Void

    /// Signatures checked per batch when progress is reported (one batch for all otherwise).
    public static let progressBatch = 4096

    /// Verifies `entries` in stored order. Throws ``TenderError/ledgerTampered(_:)``
    /// naming the first bad entry, or the checkpoint, on any failure. With `progress`,
    /// the signatures are checked in batches of ``progressBatch`` so it can be told.
    public mutating func verify(
        _ entries: [LedgerEntry], checkpoint: String? = nil, progress: Progress? = nil
    ) throws(TenderError) -> Report {
        var previousHash = LedgerPosition.genesisHash
        var hashes: [String] = []
        hashes.reserveCapacity(entries.count)
        var payloads: [JSONValue] = []
        payloads.reserveCapacity(entries.count)
        self.payloads = []
        self.hashes = []
        // Everything the walk learns starts afresh: a verifier used again must not trust a key, nor a payment, of the ledger
        // it verified before.
        signing = [:]
        enrolledBy = [:]
        revoked = []
        history = [:]
        spans = [:]
        payments = [:]
        testingMarks = []
        formatTwoSince = nil
        var checks: [SignatureCheck] = []
        checks.reserveCapacity(entries.count)
        var used: [String] = []
        var broken: (index: Int, message: String)?
        for (index, entry) in entries.enumerated() {
            do throws(TenderError) {
                let (check, payload, json) = try chainStep(entry, expectedSequence: Int64(index) + 1, previousHash: previousHash)
                checks.append(check.check)
                if !used.contains(check.keyID) { used.append(check.keyID) }
                previousHash = try LedgerEntry.hash(ofPayload: payload, crypto: crypto)
                hashes.append(previousHash)
                payloads.append(json)
            } catch {
                broken = (index, error.message)
                break
            }
            if let progress, index % 256 == 255 { progress(index + 1, 2 * entries.count) }
        }
        if let bad = firstInvalid(checks, steps: entries.count, progress: progress) {
            throw .ledgerTampered("record \(bad + 1): the signature does not verify")
        }
        if let broken { throw .ledgerTampered("record \(broken.index + 1): \(broken.message)") }
        if let checkpoint { try verifyCheckpoint(checkpoint, hashes: hashes, firstKey: used.first) }
        self.payloads = payloads
        self.hashes = hashes
        var report = Report(count: Int64(entries.count), headHash: previousHash, keyIDs: used)
        report.testingMode = testingMarks
        return report
    }

    /// The first invalid signature of `checks`: one batch, or, with `progress`, batches in order
    /// (the same answer), reporting after each.
    private func firstInvalid(_ checks: [SignatureCheck], steps: Int, progress: Progress?) -> Int? {
        guard let progress else { return crypto.firstInvalid(checks) }
        progress(steps, 2 * steps)
        var start = 0
        while start < checks.count {
            let end = min(start + Self.progressBatch, checks.count)
            if let bad = crypto.firstInvalid(Array(checks[start..<end])) { return start + bad }
            start = end
            progress(steps + start, 2 * steps)
        }
        return nil
    }

    /// A signature to check, with the key id that made it.
    private struct KeyedCheck {
        let check: SignatureCheck
        let keyID: String
    }

    /// Checks one entry's place in the chain; returns its signature check, payload bytes and parsed payload.
    private mutating func chainStep(
        _ entry: LedgerEntry, expectedSequence: Int64, previousHash: String
    ) throws(TenderError) -> (KeyedCheck, [UInt8], JSONValue) {
        guard entry.sequence == expectedSequence else {
            throw .ledgerTampered("stored at position \(entry.sequence); an entry was deleted, inserted or moved")
        }
        let jws = try CompactJWS(parsing: entry.jws)
        let key: [UInt8]
        if !signing.isEmpty {
            guard let known = signing[jws.keyID] else {
                if revoked.contains(jws.keyID) { throw .ledgerTampered("signed by key \(jws.keyID.prefix(64)), which was revoked before it") }
                if signing.count == 1, let only = signing.keys.first {
                    throw .ledgerTampered("signed by key \(jws.keyID.prefix(64)), but \(only) was the signing key then")
                }
                throw .ledgerTampered("signed by key \(jws.keyID.prefix(64)), which was not one of the keys signing then")
            }
            key = known
        } else {
            guard let root = roots[jws.keyID] else { throw .ledgerTampered("signed by an untrusted key \(jws.keyID.prefix(64))") }
            key = root
            signing = [jws.keyID: root]
            history[jws.keyID] = root
            spans[jws.keyID] = [(from: 0, until: nil)]
        }
        let payload = try Self.payloadObject(jws)
        guard payload["sequence"] == .number(String(expectedSequence)) else {
            throw .ledgerTampered("its signed sequence number is not \(expectedSequence); an entry was deleted, inserted or moved")
        }
        guard payload["previousHash"]?.stringValue == previousHash else {
            throw .ledgerTampered("it does not link to the entry before it")
        }
        let type = payload["type"]?.stringValue
        do throws(TenderError) {
            let format = try RecordFormat.of(payload)
            if type == "payment" {
                try acceptFormat(format, of: payload, at: expectedSequence)
            } else if format != 1 {
                throw .ledgerTampered("a \(type?.prefix(40) ?? "typeless") entry carrying a record format; only payment records carry one")
            }
        } catch {
            // An entry edited after it was signed is named as such; a format broken under a valid signature, as itself.
            guard crypto.isValidSignature(jws.signature, of: jws.signingInput, publicKey: key) else {
                throw .ledgerTampered("the signature does not verify")
            }
            throw error
        }
        switch type {
        case "key_rotation": try acceptRotation(payload, by: jws.keyID, at: expectedSequence)
        case KeyEnrollment.addedType: try acceptEnrollment(payload, by: jws.keyID, at: expectedSequence)
        case KeyEnrollment.revokedType: try acceptRevocation(payload, by: jws.keyID, at: expectedSequence)
        case "payment": notePayment(payload, at: expectedSequence)
        case PaymentStatusChange.entryType: try acceptStatusChange(payload)
        case TestingModeMark.entryType: testingMarks.append(expectedSequence)
        default: break
        }
        let check = SignatureCheck(signature: jws.signature, message: jws.signingInput, publicKey: key)
        return (KeyedCheck(check: check, keyID: jws.keyID), jws.payload, payload)
    }

    private static func payloadObject(_ jws: CompactJWS) throws(TenderError) -> JSONValue {
        let payload: JSONValue
        do throws(TenderError) { payload = try JSONParser.parse(jws.payload) } catch { throw .ledgerTampered("the payload is not JSON") }
        guard payload.objectMembers != nil else { throw .ledgerTampered("the payload is not a JSON object") }
        return payload
    }

    /// The new key a rotation or an enrollment names, checked against its thumbprint.
    private func newKey(_ payload: JSONValue, _ what: String) throws(TenderError) -> (kid: String, raw: [UInt8]) {
        guard let kid = payload["newKid"]?.stringValue, let x = payload["newKey"]?["x"]?.stringValue,
            payload["newKey"]?["crv"]?.stringValue == "Ed25519", let raw = Base64URL.decode(x), raw.count == 32
        else { throw .ledgerTampered("a malformed \(what)") }
        guard try JWK.ed25519Thumbprint(publicKey: raw, crypto: crypto) == kid else {
            throw .ledgerTampered("the \(what)'s key id is not its key's thumbprint")
        }
        return (kid, raw)
    }

    /// A rotation by `signer` hands its place to the new key (which takes over the keys it enrolled).
    private mutating func acceptRotation(_ payload: JSONValue, by signer: String, at sequence: Int64) throws(TenderError) {
        let (kid, raw) = try newKey(payload, "key rotation")
        // A revoked key never signs again, nor does a rotation hand over to a key signing already (another machine's).
        guard !revoked.contains(kid), kid == signer || signing[kid] == nil else {
            throw .ledgerTampered("the key rotation hands over to a key that signs already or was revoked")
        }
        if kid != signer {
            end(signer, at: sequence)
            begin(kid, at: sequence)
        }
        signing[signer] = nil
        signing[kid] = raw
        for (child, parent) in enrolledBy where parent == signer { enrolledBy[child] = kid }
        if let parent = enrolledBy.removeValue(forKey: signer) { enrolledBy[kid] = parent }
        history[kid] = raw
    }

    /// An enrollment by `signer` adds a key beside the ones signing.
    private mutating func acceptEnrollment(_ payload: JSONValue, by signer: String, at sequence: Int64) throws(TenderError) {
        let (kid, raw) = try newKey(payload, "key enrollment")
        guard !revoked.contains(kid), signing[kid] == nil else {
            throw .ledgerTampered("the key enrollment names a key that signs already or was revoked")
        }
        signing[kid] = raw
        enrolledBy[kid] = signer
        history[kid] = raw
        begin(kid, at: sequence)
    }

    /// Notes that `kid` signs from the ledger's length `sequence` on.
    private mutating func begin(_ kid: String, at sequence: Int64) {
        spans[kid, default: []].append((from: sequence, until: nil))
    }

    /// Notes that `kid` signs no more from the ledger's length `sequence` on.
    private mutating func end(_ kid: String, at sequence: Int64) {
        guard var list = spans[kid], let last = list.indices.last, list[last].until == nil else { return }
        list[last].until = sequence
        spans[kid] = list
    }

    /// Whether `kid` signed when the ledger held `count` entries.
    private func signed(_ kid: String, at count: Int64) -> Bool {
        spans[kid, default: []].contains { $0.from <= count && count < ($0.until ?? Int64.max) }
    }

    /// A revocation takes the key out, with every key it enrolled (and they enrolled). Only a key that enrolled it, or
    /// enrolled its enroller, may revoke it: trust flows down from the first key, and so does its withdrawal, so a key
    /// cannot revoke the key that enrolled it, nor its siblings (one machine cannot lock the others out).
    private mutating func acceptRevocation(_ payload: JSONValue, by signer: String, at sequence: Int64) throws(TenderError) {
        guard let kid = payload["revokedKid"]?.stringValue, signing[kid] != nil else {
            throw .ledgerTampered("a key revocation that names no key signing then")
        }
        guard kid != signer else { throw .ledgerTampered("a key revocation signed by the key it revokes") }
        guard Self.isAncestor(signer, of: kid, in: enrolledBy) else {
            throw .ledgerTampered("a key revocation signed by \(signer.prefix(64)), which did not enroll the key it revokes (nor its enroller)")
        }
        var out: Set<String> = [kid]
        var frontier = [kid]
        while let parent = frontier.popLast() {
            for (child, by) in enrolledBy where by == parent && !out.contains(child) {
                out.insert(child)
                frontier.append(child)
            }
        }
        for gone in out {
            signing[gone] = nil
            enrolledBy[gone] = nil
            revoked.insert(gone)
            end(gone, at: sequence)
        }
    }

    /// Whether `ancestor` enrolled `kid`, or enrolled a key that did, and so on up (`enrolledBy`: kid → enrolling kid).
    public static func isAncestor(_ ancestor: String, of kid: String, in enrolledBy: [String: String]) -> Bool {
        var current = kid
        var seen: Set<String> = []
        while let parent = enrolledBy[current], seen.insert(current).inserted {
            if parent == ancestor { return true }
            current = parent
        }
        return false
    }

    /// A payment record's format: format 1 only before the first format-2 record (a ledger never goes back),
    /// and a format-2 record's own rules (``RecordFormat/checkFormatTwo(_:crypto:)``).
    private mutating func acceptFormat(_ format: Int, of payload: JSONValue, at sequence: Int64) throws(TenderError) {
        if format == 1 {
            if let since = formatTwoSince {
                throw .ledgerTampered("a format-1 payment record after the format-2 record \(since); a ledger never goes back to format 1")
            }
            return
        }
        try RecordFormat.checkFormatTwo(payload, crypto: crypto)
        if formatTwoSince == nil { formatTwoSince = sequence }
    }

    private mutating func notePayment(_ payload: JSONValue, at sequence: Int64) {
        payments[sequence] = (payload["idempotencyKey"]?.stringValue ?? "", payload["status"]?.stringValue ?? "")
    }

    /// A status change must name an earlier payment by sequence and key, start from its status then, and be allowed.
    private mutating func acceptStatusChange(_ payload: JSONValue) throws(TenderError) {
        guard case let .number(text)? = payload["payment"], let sequence = Int64(text), let payment = payments[sequence],
            payload["idempotencyKey"]?.stringValue == payment.key
        else { throw .ledgerTampered("a status change that names no earlier payment") }
        guard payload["previousStatus"]?.stringValue == payment.status,
            let from = PaymentStatus(rawValue: payment.status), let to = payload["status"]?.stringValue.flatMap(PaymentStatus.init(rawValue:)),
            PaymentStatusChange.allows(from: from, to: to)
        else { throw .ledgerTampered("a status change the payment's status then does not allow") }
        payments[sequence] = (payment.key, to.rawValue)
    }

    /// Checks a checkpoint against the chain just walked: signed by a key that signed this ledger, and, when it covers
    /// no more than the chain holds, by a key signing at the length it covers (not one rotated away or revoked before:
    /// that key could otherwise vouch for a history written after it was taken out). A checkpoint of an empty ledger is
    /// signed by a root key. A checkpoint naming the key that signed the first record (`firstKid`) must name `firstKey`,
    /// the first record's signer here: the hashes do not cover who signed.
    private func verifyCheckpoint(_ text: String, hashes: [String], firstKey: String?) throws(TenderError) {
        let payload: JSONValue
        let signer: String
        do throws(TenderError) {
            let jws = try CompactJWS(parsing: text)
            guard let key = history[jws.keyID] ?? (history.isEmpty ? roots[jws.keyID] : nil) else {
                throw .ledgerTampered("signed by a key that never signed this ledger")
            }
            guard crypto.isValidSignature(jws.signature, of: jws.signingInput, publicKey: key) else {
                throw .ledgerTampered("the signature does not verify")
            }
            payload = try Self.payloadObject(jws)
            signer = jws.keyID
        } catch {
            throw .ledgerTampered("checkpoint: \(error.message)")
        }
        guard payload["type"]?.stringValue == "checkpoint", case let .number(countText)? = payload["count"],
            let count = Int(countText), count >= 0, let head = payload["headHash"]?.stringValue
        else { throw .ledgerTampered("checkpoint: not a checkpoint") }
        guard count <= hashes.count else {
            throw .ledgerTampered("the ledger has \(hashes.count) records but the checkpoint covers \(count): it was truncated")
        }
        if let named = payload["firstKid"] {
            guard let kid = named.stringValue else { throw .ledgerTampered("checkpoint: not a checkpoint") }
            guard firstKey == nil || firstKey == kid else {
                throw .ledgerTampered(
                    "checkpoint: the ledger's first record is signed by key \(firstKey?.prefix(64) ?? ""), not by \(kid.prefix(64)), the "
                        + "first key the checkpoint names: its records were signed again by another first key")
            }
        }
        guard spans.isEmpty || signed(signer, at: Int64(count)) else {
            throw .ledgerTampered(
                "checkpoint: signed by key \(signer.prefix(64)), which did not sign when the ledger held \(count) records "
                    + "(it was revoked or rotated away before, or enrolled after)")
        }
        let expected = count == 0 ? LedgerPosition.genesisHash : hashes[count - 1]
        guard expected == head else {
            throw .ledgerTampered("the first \(count) records differ from the checkpoint: history was rewritten")
        }
    }
}
