// SPDX-License-Identifier: Apache-2.0
import Synchronization
import Testing
import TenderCore
import TenderCrypto
@testable import TenderPostgres
import TenderStore

/// The PostgreSQL store's keys pass the public key the store records for a key on to the key directory, as the SQLite
/// store's are asked (at 2467df6 the protocol's default dropped it: every signer derived its public key from the seed).
@Suite struct PostgresKeysTests {
    /// A key directory that notes which way each signer was asked for.
    final class Noting: KeyStore, @unchecked Sendable {
        let keys: KeyDirectory
        let asked = Mutex<[String]>([])
        init(home: String) throws { keys = try KeyDirectory(home: home, create: true) }
        func createKey() throws(TenderError) -> (keyID: String, publicKey: [UInt8]) { try keys.createKey() }
        func destroyKey(keyID: String) throws(TenderError) { try keys.destroyKey(keyID: keyID) }
        func signer(keyID: String) throws(TenderError) -> any RecordSigner {
            asked.withLock { $0.append("derived") }
            return try keys.signer(keyID: keyID)
        }
        func signer(keyID: String, recordedPublicKey: [UInt8]) throws(TenderError) -> any RecordSigner {
            asked.withLock { $0.append("recorded") }
            return try keys.signer(keyID: keyID, recordedPublicKey: recordedPublicKey)
        }
    }

    @Test func theRecordedPublicKeyIsPassedOn() throws {
        let home = PostgresFixture.home()
        try SQLiteStore.prepareKeyHome(home)
        let noting = try Noting(home: home)
        let (kid, publicKey) = try noting.createKey()
        let signer = try PostgresKeys(keys: noting).signer(keyID: kid, recordedPublicKey: publicKey)
        #expect(noting.asked.withLock { $0 } == ["recorded"])
        #expect(signer.keyID == kid)
        let message = Array("a record".utf8)
        #expect(try Ed25519PublicKey(bytes: publicKey).isValidSignature(try signer.sign(message), of: message))
        // Another public key recorded for it is never paired with its seed (the directory derives the key's own).
        let stranger = try Ed25519PrivateKey.generate().publicKeyBytes()
        let other = try PostgresKeys(keys: noting).signer(keyID: kid, recordedPublicKey: stranger)
        #expect(try Ed25519PublicKey(bytes: publicKey).isValidSignature(try other.sign(message), of: message))
    }
}
