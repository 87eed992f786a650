// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Claims are sealed (``ClaimSeal``): an Ed25519 signature by the key signing the ledger over the claim's idempotency
/// key, fingerprint, record body and token, with that key's kid kept beside it (`claims.seal_kid`, `claims.seal`). A
/// claim's body becomes a signed record only when `tender status KEY completed` settles it, and only once its seal
/// checks against the key signing now, so a claim written into the store by anyone who cannot sign (a forged one, an
/// edited one, one with another claim's seal, one sealed by a key that no longer signs here) is refused, never signed.
/// A rotation seals again, under the new key, every claim whose seal checks under the old one.
extension SQLiteStore {
    /// A claim's seal made by `signer`: its kid and the signature (base64url).
    func sealClaim(
        _ key: String, fingerprint: String, body: String, token: String, signer: any RecordSigner
    ) throws(TenderError) -> (keyID: String, seal: String) {
        let message = ClaimSeal.message(keyID: signer.keyID, idempotencyKey: key, fingerprint: fingerprint, body: body, token: token)
        return (signer.keyID, Base64URL.encode(try signer.sign(message)))
    }

    /// Checks, inside the caller's transaction, that `claim` (under `key`) carries a seal made by the key signing
    /// now: its kid is the active one, whose private key this home holds (its file names it by its thumbprint), the
    /// public key recorded for it has that thumbprint, and the signature checks under it. Throws
    /// ``TenderError/ledgerTampered(_:)`` naming what does not hold; nothing is changed.
    func checkClaimSeal(_ key: String, _ claim: StoredClaim, _ db: any StoreDatabase) throws(TenderError) {
        let refused = "the claim under the idempotency key \(key)"
        let advice = "the store was edited by someone who cannot sign; it is not settled (look the payment up in the host's system)"
        guard let kid = claim.sealKeyID, let text = claim.seal else {
            throw .ledgerTampered("\(refused) carries no seal, which every claim Tender writes does: \(advice)")
        }
        // One of the keys signing now (several on a shared store, one per machine), whose private key this home holds (below).
        let active = try db.statement("SELECT kid FROM signing_keys WHERE active = 1 AND kid = ?", [kid])
        let isActive = try active.step()
        if isActive { _ = try active.step() }
        guard isActive else {
            throw .ledgerTampered(
                "\(refused) is sealed by the key \(kid.prefix(64)), which is not the key signing here (a rotation seals every claim "
                    + "again under the new key): \(advice)")
        }
        let recorded = try db.statement("SELECT public_key FROM signing_keys WHERE kid = ?", [kid])
        guard try recorded.step() else { throw .ledgerTampered("\(refused) is sealed by a key the store does not record: \(advice)") }
        let publicKey = recorded.blob(0)
        _ = try recorded.step()
        // The private key's file is named by its thumbprint (KeyStore checks it), and the recorded public key must have it too.
        _ = try keys.signer(keyID: kid)
        guard publicKey.count == 32, try JWK.ed25519Thumbprint(publicKey: publicKey, crypto: crypto) == kid else {
            throw .ledgerTampered("\(refused) is sealed by the key \(kid.prefix(64)), whose recorded public key is not that key's: \(advice)")
        }
        let message = ClaimSeal.message(keyID: kid, idempotencyKey: key, fingerprint: claim.fingerprint, body: claim.body, token: claim.token)
        guard let signature = Base64URL.decode(text), crypto.isValidSignature(signature, of: message, publicKey: publicKey) else {
            throw .ledgerTampered("\(refused) does not match its seal (its key, fingerprint, record or token differ from the ones sealed): \(advice)")
        }
    }

    /// Seals again under `new`, inside a rotation's write transaction, every claim whose seal checks under the
    /// key signing until now (`old`); a claim whose seal does not check is left as it is (settling it is refused).
    func resealClaims(from old: any RecordSigner, to new: any RecordSigner, _ db: any StoreDatabase) throws(TenderError) {
        let keys = try db.statement("SELECT idempotency_key FROM claims WHERE seal_kid = ?", [old.keyID]).rows { $0.text(0) ?? "" }
        for key in keys {
            guard let claim = try storedClaim(key, db), (try? checkClaimSeal(key, claim, db)) != nil else { continue }
            let seal = try sealClaim(key, fingerprint: claim.fingerprint, body: claim.body, token: claim.token, signer: new)
            try db.statement("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = ?", [seal.keyID, seal.seal, key]).run()
        }
    }
}
