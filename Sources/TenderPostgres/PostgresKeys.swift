// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The PostgreSQL store's keys: `keys` (this machine's key files), whose signers start their batches' workers at the
/// first message (``LateStartSigner``), not while the store's transaction waits for the server. Thread-safe as `keys`.
struct PostgresKeys: KeyStore {
    let keys: any KeyStore

    func createKey() throws(TenderError) -> (keyID: String, publicKey: [UInt8]) { try keys.createKey() }

    func signer(keyID: String) throws(TenderError) -> any RecordSigner { LateStartSigner(signer: try keys.signer(keyID: keyID)) }

    /// As ``signer(keyID:)``, passing the public key the store records for the key on to `keys` (which takes it only if it
    /// is the key's, sparing the derivation from the seed), as the SQLite store's key directory is asked.
    func signer(keyID: String, recordedPublicKey: [UInt8]) throws(TenderError) -> any RecordSigner {
        LateStartSigner(signer: try keys.signer(keyID: keyID, recordedPublicKey: recordedPublicKey))
    }

    func destroyKey(keyID: String) throws(TenderError) { try keys.destroyKey(keyID: keyID) }
}
