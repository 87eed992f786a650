// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore {
    /// The store's signing keys, their states and public keys, in order: ``activeSigner(_:ahead:)``'s read, and the open's.
    static let signingKeysSQL = "SELECT kid, active, public_key FROM signing_keys ORDER BY rowid"

    /// The signer of the active key this home holds, creating the first key on first use, in a store whose ledger is empty (its file is
    /// named as not recorded until the transaction commits, see ``write(lazy:_:)``). On a shared store (tenderd on
    /// PostgreSQL) several keys are active at once, one per machine (``KeyState``): this machine signs with the one
    /// whose private key it holds. Throws ``TenderError/keyFile(_:)`` when it holds none that is enrolled: its key
    /// awaits enrollment, was revoked, or was removed from the store (``machineKeyRefusal(_:)``), and when the store records
    /// no key at all while its ledger holds records (every row was removed: no key is made, nothing is written).
    /// `ahead`: the read of ``signingKeysSQL`` the caller made already (``StoreDatabase/ahead(_:_:)``), else it is made here,
    /// ending with ``StoreDatabase/keysReadLock`` (FOR SHARE on PostgreSQL) as the batch's: the rows read are held until COMMIT,
    /// so a key row removed by hand while the transaction waits (a row lock taken after this read) waits for the COMMIT, and no
    /// record signed by a key the store no longer records is kept. Called inside a write transaction only (FOR SHARE is refused
    /// in PostgreSQL's read-only ones): every caller is in ``write(lazy:_:)``.
    func activeSigner(_ db: any StoreDatabase, ahead: AheadRead? = nil) throws(TenderError) -> any RecordSigner {
        let keysRead: any StoreStatement
        if let ahead { keysRead = try ahead.statement() } else { keysRead = try db.statement(Self.signingKeysSQL + db.keysReadLock) }
        let rows = try keysRead.rows { (kid: $0.text(0) ?? "", state: $0.int64(1), publicKey: $0.blob(2)) }
        var firstError: TenderError?
        for row in rows where row.state == KeyState.enrolled {
            do throws(TenderError) {
                // The recorded public key spares deriving it from the seed; the key store takes it only if it is the key's.
                let signer = try keys.signer(keyID: row.kid, recordedPublicKey: row.publicKey)
                noteSigner(row.kid)
                chosenSigner.withLock { $0 = (row.kid, row.publicKey) }
                return signer
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if rows.isEmpty {
            // Only a brand-new store (no ledger record yet) makes its first key: once records are signed, a key made now would
            // sign records verify refuses (it is in no signed enrollment), so a store whose key rows were all removed is an error.
            let records = try db.statement("SELECT count(*) FROM ledger")
            _ = try records.step()
            let held = records.int64(0)
            _ = try records.step()
            guard held == 0 else {
                throw .keyFile(
                    "no signing key is recorded for this store (\(storeName)), yet its ledger holds \(held) records: every key row was "
                        + "removed, and a key made now would sign records verify refuses; nothing was written (restore the signing_keys rows, "
                        + "docs/security.md)")
            }
            let created = try keys.createKey()
            createdKeys.withLock { $0.append(created.keyID) }
            try db.statement(
                "INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES (?, ?, ?, 1)",
                [created.keyID, created.publicKey, clock.nowMilliseconds()]
            ).run()
            return try keys.signer(keyID: created.keyID)
        }
        if let refusal = try machineKeyRefusal(rows.map { (kid: $0.kid, state: $0.state) }) { throw refusal }
        throw firstError ?? .keyFile("no key signs for this store here: every key it records was retired")
    }

    /// The active key, created now if the store has none yet.
    public func activeKey() throws(TenderError) -> StoredPublicKey {
        let kid = try write { (db) throws(TenderError) in try activeSigner(db).keyID }
        guard let key = try publicKeys().first(where: { $0.keyID == kid }) else { throw .internal("the active key is not recorded") }
        return key
    }

    /// Every public key that ever signed, in the order they were recorded (rowid, not the wall clock).
    public func publicKeys() throws(TenderError) -> [StoredPublicKey] {
        try read { (db) throws(TenderError) in
            try db.statement("SELECT kid, public_key, created_at_ms, active FROM signing_keys ORDER BY rowid").rows {
                StoredPublicKey(keyID: $0.text(0) ?? "", publicKey: $0.blob(1), createdAtMilliseconds: $0.int64(2), isActive: $0.int64(3) == KeyState.enrolled)
            }
        }
    }

    /// Makes a new key the signing key. The rotation is a ledger entry signed
    /// by the old key; the old private key is destroyed, its public key kept,
    /// once every record committed without its stored signature was signed and stored, and every claim
    /// whose seal checks was sealed again by the new key.
    /// Returns the new key.
    public func rotateKey() throws(TenderError) -> StoredPublicKey {
        let (old, new) = try write { (db) throws(TenderError) -> (String, String) in
            let old = try activeSigner(db).keyID
            // Every record committed before its signature was stored (by any process) is signed while the old key exists.
            try signUnsignedRecords(db, noting: false)
            let created = try keys.createKey()
            createdKeys.withLock { $0.append(created.keyID) }
            try append(type: "key_rotation", db) { position in
                KeyRotation.payload(at: position, newKeyID: created.keyID, newPublicKey: created.publicKey)
            }
            // Every claim sealed by the old key (and only one whose seal checks) is sealed again by the new one.
            try resealClaims(from: try keys.signer(keyID: old), to: try keys.signer(keyID: created.keyID), db)
            try db.statement("UPDATE signing_keys SET active = 0 WHERE kid = ?", [old]).run()
            try db.statement(
                "INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES (?, ?, ?, 1)",
                [created.keyID, created.publicKey, clock.nowMilliseconds()]
            ).run()
            return (old, created.keyID)
        }
        // A record prepared for the old key is never used now.
        expectedHead.withLock { $0 = nil }
        do throws(TenderError) { try keys.destroyKey(keyID: old) } catch {
            throw .keyFile("the key was rotated, but the retired private key could not be removed: \(error.message)")
        }
        guard let key = try publicKeys().first(where: { $0.keyID == new }) else { throw .internal("the new key is not recorded") }
        return key
    }
}
