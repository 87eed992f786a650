// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A key per machine on a shared store (tenderd on PostgreSQL, docs/scale.md): each machine serving a person
/// holds a private key of its own for them (`STATE/UID/keys`), whose public half is registered in the store as
/// pending (``registerMachineKey()``). It signs once a machine whose key already signs for the person enrolls it
/// (``enrollKey(_:)``: a `key_added` ledger entry signed by that key, ``KeyEnrollment``), and it stops when revoked
/// (``revokeKey(_:)``: a `key_revoked` entry; verify then refuses what it signs). A row written into the store by
/// anyone else makes no key sign nor verify: only the chain does.
extension SQLiteStore {
    /// The key each home signed with last in this process (home → kid), so a key whose row was removed from the
    /// store is named as such.
    private static let lastSigner = PthreadLocked<[String: String]>([:])

    /// Stores each batch's signatures as soon as they are computed (a shared store: another machine cannot complete them).
    public func storeSignaturesAtOnce() {
        signaturesAtOnce.withLock { $0 = true }
    }

    /// Notes that this home signs with `kid`.
    func noteSigner(_ kid: String) {
        if Self.lastSigner.withLock({ $0[home] }) != kid { Self.lastSigner.withLock { $0[home] = kid } }
    }

    /// Why this machine cannot sign when it holds no enrolled key among `rows` (kid, ``KeyState``): its key is pending,
    /// revoked, or gone from the store; nil when none of those (the caller says the key file is missing).
    func machineKeyRefusal(_ rows: [(kid: String, state: Int64)]) throws(TenderError) -> TenderError? {
        let advice = "this machine cannot sign for this person"
        for row in rows where row.state == KeyState.pending || row.state == KeyState.revoked {
            guard (try? keys.signer(keyID: row.kid)) != nil else { continue }
            if row.state == KeyState.revoked {
                return .keyFile("this machine's signing key \(row.kid) was revoked in \(storeName): \(advice)")
            }
            return .keyFile(
                "this machine's signing key \(row.kid) is registered in \(storeName) but not enrolled yet: \(advice) until a machine whose key "
                    + "signs for them enrolls it (tenderd --enroll-key \(row.kid) --uid UID, docs/scale.md)")
        }
        if let last = Self.lastSigner.withLock({ $0[home] }), !rows.contains(where: { $0.kid == last }) {
            return .keyFile("this machine's signing key \(last) was removed from \(storeName): \(advice)")
        }
        return nil
    }

    /// Registers this machine's own key for the person as pending when the store already has keys and none of them is
    /// held here (a shared store first opened on this machine); returns its kid, or nil when nothing was registered.
    @discardableResult
    public func registerMachineKey() throws(TenderError) -> String? {
        try write { (db) throws(TenderError) -> String? in
            let rows = try db.statement("SELECT kid FROM signing_keys").rows { $0.text(0) ?? "" }
            guard !rows.isEmpty, !rows.contains(where: { (try? keys.signer(keyID: $0)) != nil }) else { return nil }
            let created = try keys.createKey()
            createdKeys.withLock { $0.append(created.keyID) }
            try db.statement(
                "INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES (?, ?, ?, ?)",
                [created.keyID, created.publicKey, clock.nowMilliseconds(), KeyState.pending]
            ).run()
            return created.keyID
        }
    }

    /// Enrolls the pending key `kid` (another machine's): a `key_added` entry signed by this machine's key, after which
    /// that key signs and verify trusts it. Throws ``TenderError/notFound(_:)`` when no such key is pending, and what
    /// signing throws when this machine's key does not sign (a machine cannot enroll keys unless its own signs).
    public func enrollKey(_ kid: String) throws(TenderError) -> StoredPublicKey {
        try write { (db) throws(TenderError) in
            let row = try db.statement("SELECT public_key FROM signing_keys WHERE kid = ? AND active = ?", [kid, KeyState.pending])
            guard try row.step() else { throw .notFound("no key \(kid.prefix(64)) awaits enrollment for this person") }
            let publicKey = row.blob(0)
            _ = try row.step()
            guard publicKey.count == 32, try JWK.ed25519Thumbprint(publicKey: publicKey, crypto: crypto) == kid else {
                throw .ledgerTampered("the pending key \(kid.prefix(64)) is not the key its id names")
            }
            // A key the ledger named before (the first key, enrolled or rotated to: it signs, was revoked or retired) is not
            // enrolled again, whatever its row says (every daemon's role can set a revoked row back to pending): verify
            // refuses such an entry, and so every record after it.
            let named = try db.statement(
                "SELECT jws FROM ledger WHERE type IN (?, 'key_rotation') OR sequence = 1 ORDER BY sequence", [KeyEnrollment.addedType]
            ).rows { $0.text(0) ?? "" }
            for text in named {
                guard let jws = try? CompactJWS(parsing: text) else { continue }
                guard jws.keyID != kid, (try? JSONParser.parse(jws.payload))?["newKid"]?.stringValue != kid else {
                    throw .invalidArgument(
                        "the key \(kid.prefix(64)) was in this person's ledger before (it signs, or was revoked or retired): it is not "
                            + "enrolled again, whatever its row says (docs/scale.md)")
                }
            }
            try append(type: KeyEnrollment.addedType, db) { position in
                KeyEnrollment.added(at: position, newKeyID: kid, newPublicKey: publicKey)
            }
            try db.statement("UPDATE signing_keys SET active = ? WHERE kid = ?", [KeyState.enrolled, kid]).run()
        }
        guard let key = try publicKeys().first(where: { $0.keyID == kid }) else { throw .internal("the enrolled key is not recorded") }
        return key
    }

    /// Revokes the key `kid` (another machine's, enrolled or pending): an enrolled one by a `key_revoked` entry signed by
    /// this machine's key, which must have enrolled it or its enroller (``LedgerVerifier``), and takes out every key it
    /// enrolled too; those rows are marked revoked, so no machine holding them signs again. Returns the kids revoked.
    /// Throws ``TenderError/notFound(_:)`` for a key neither enrolled nor pending, ``TenderError/invalidArgument(_:)`` for
    /// this machine's own, or one it did not enroll.
    public func revokeKey(_ kid: String) throws(TenderError) -> [String] {
        try write { (db) throws(TenderError) -> [String] in
            let row = try db.statement("SELECT active FROM signing_keys WHERE kid = ?", [kid])
            guard try row.step() else { throw .notFound("no key \(kid.prefix(64)) is recorded for this person") }
            let state = row.int64(0)
            _ = try row.step()
            if state == KeyState.pending {
                try db.statement("UPDATE signing_keys SET active = ? WHERE kid = ?", [KeyState.revoked, kid]).run()
                return [kid]
            }
            guard state == KeyState.enrolled else { throw .notFound("the key \(kid.prefix(64)) does not sign for this person") }
            let signer = try activeSigner(db).keyID
            // Who enrolled whom, from the signed ledger (a rotation hands the enrolled keys over to the new key), and the
            // person's first key (the first record's signer, or the key it rotated into).
            var enrolledBy: [String: String] = [:]
            var first: String?
            let entries = try db.statement(
                "SELECT jws FROM ledger WHERE type IN (?, 'key_rotation') OR sequence = 1 ORDER BY sequence", [KeyEnrollment.addedType]
            ).rows { $0.text(0) ?? "" }
            for text in entries {
                guard let jws = try? CompactJWS(parsing: text), let payload = try? JSONParser.parse(jws.payload) else { continue }
                if first == nil { first = jws.keyID }
                guard let added = payload["newKid"]?.stringValue, payload["type"]?.stringValue != "payment" else { continue }
                if payload["type"]?.stringValue == "key_rotation" {
                    if jws.keyID == first { first = added }
                    for (child, parent) in enrolledBy where parent == jws.keyID { enrolledBy[child] = added }
                    if let parent = enrolledBy.removeValue(forKey: jws.keyID) { enrolledBy[added] = parent }
                } else if payload["type"]?.stringValue == KeyEnrollment.addedType {
                    enrolledBy[added] = jws.keyID
                }
            }
            // The first key is the root every other key descends from (docs/scale.md, "Keys and trust"): a key it enrolled may
            // not cut it out (nor, through it, every key), and it may not leave the person without it.
            guard kid != first else {
                throw .invalidArgument(
                    "the key \(kid.prefix(64)) is this person's first key, the root every other key descends from: no machine revokes it, "
                        + "not even its own (docs/scale.md, \"Keys and trust\")")
            }
            guard signer != kid else {
                throw .invalidArgument("this machine's own key cannot revoke itself: revoke it from another machine, or rotate it")
            }
            guard LedgerVerifier.isAncestor(signer, of: kid, in: enrolledBy) else {
                throw .invalidArgument(
                    "this machine's key did not enroll the key \(kid.prefix(64)) (nor its enroller), so it cannot revoke it: revoke it from "
                        + "the machine that enrolled it, or one above (docs/scale.md)")
            }
            var out: [String] = [kid]
            var frontier = [kid]
            while let parent = frontier.popLast() {
                for (child, by) in enrolledBy where by == parent && !out.contains(child) {
                    out.append(child)
                    frontier.append(child)
                }
            }
            try append(type: KeyEnrollment.revokedType, db) { position in KeyEnrollment.revoked(at: position, keyID: kid) }
            for gone in out {
                try db.statement("UPDATE signing_keys SET active = ? WHERE kid = ? AND active = ?", [KeyState.revoked, gone, KeyState.enrolled]).run()
            }
            return out
        }
    }
}

extension SQLiteStore {
    /// Every key the store records for the person, in the order recorded, with its state: `enrolled`, `pending`,
    /// `revoked` or `retired` (``KeyState``).
    /// `here`: whether this machine holds the key's private half (its file is in this home), so an administrator enrolls
    /// the key a machine's own listing shows as here, not one another row names.
    public func keyStates() throws(TenderError) -> [(keyID: String, state: String, here: Bool)] {
        let rows = try read { (db) throws(TenderError) in
            try db.statement("SELECT kid, active FROM signing_keys ORDER BY rowid").rows { row in
                let names = [KeyState.retired: "retired", KeyState.enrolled: "enrolled", KeyState.pending: "pending", KeyState.revoked: "revoked"]
                return (row.text(0) ?? "", names[row.int64(1)] ?? "unknown")
            }
        }
        return rows.map { ($0.0, $0.1, (try? keys.signer(keyID: $0.0)) != nil) }
    }
}
