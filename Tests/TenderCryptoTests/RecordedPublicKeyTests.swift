// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
import TenderCore
@testable import TenderCrypto

/// Issue 34 (many homes): a key's signer takes the public key the store records for it instead of deriving it from
/// the seed (a scalar multiplication, tens of microseconds, at every engine open of a host serving many homes), and
/// only when that public key's thumbprint is the key's id. OpenSSL pairs a seed with any public key it is given.
@Suite struct RecordedPublicKeyTests {
    static let message = Array("a record".utf8)

    @Test func aSeedWithItsPublicKeySignsAndSealsAsTheDerivedKey() throws {
        let derived = try Ed25519PrivateKey(seed: KeyPEMTests.seed)
        let paired = try Ed25519PrivateKey(seed: KeyPEMTests.seed, publicKey: KeyPEMTests.publicKey)
        #expect(try paired.publicKeyBytes() == KeyPEMTests.publicKey)
        #expect(try paired.sign(Self.message) == derived.sign(Self.message))
        #expect(try paired.seal(Self.message) == derived.seal(Self.message))
        #expect(throws: TenderError.self) { try Ed25519PrivateKey(seed: KeyPEMTests.seed, publicKey: []) }
        #expect(throws: TenderError.self) { try Ed25519PrivateKey(seed: [1, 2, 3], publicKey: KeyPEMTests.publicKey) }
    }

    @Test func theRecordedPublicKeyOfTheKeyIsTaken() throws {
        let home = temporaryDirectory()
        let (kid, publicKey) = try KeyDirectory(home: home).createKey()
        // Another directory object (another engine's open): nothing cached, the key read from its file.
        let signer = try KeyDirectory(home: home).signer(keyID: kid, recordedPublicKey: publicKey)
        #expect(signer.keyID == kid)
        #expect(try Ed25519PublicKey(bytes: publicKey).isValidSignature(try signer.sign(Self.message), of: Self.message))
    }

    /// An adversary who can change the store but not read the key records another public key for the key (the
    /// double-public-key attack: two signatures of one message under two public keys reveal the private key). Its
    /// thumbprint is not the key's id, so it is never paired with the seed: the public key is derived, and the
    /// signatures are the real key's.
    @Test func anotherPublicKeyRecordedForTheKeyIsNeverPairedWithItsSeed() throws {
        let home = temporaryDirectory()
        let (kid, publicKey) = try KeyDirectory(home: home).createKey()
        let stranger = try Ed25519PrivateKey.generate().publicKeyBytes()
        for recorded in [stranger, [UInt8](repeating: 0, count: 32), Array(publicKey.reversed()), [], Array(publicKey.prefix(31))] {
            let signer = try KeyDirectory(home: home).signer(keyID: kid, recordedPublicKey: recorded)
            #expect(signer.keyID == kid)
            #expect((signer as? Ed25519Signer)?.publicKey == publicKey)
            let signature = try signer.sign(Self.message)
            #expect(try Ed25519PublicKey(bytes: publicKey).isValidSignature(signature, of: Self.message))
            #expect(try signature == Ed25519PrivateKey(pem: KeyFile.load(at: home + "/keys/\(kid).pem.new")).sign(Self.message))
        }
    }

    /// What the thumbprint cannot see, kept as a record: the file named after the key holding another key's seed. Read
    /// alone, it is refused as before; with the key's own recorded public key it is taken (no derivation), and its
    /// signatures do not verify under the recorded key (verify reports them). Only a writer of the user's 0700 keys/,
    /// who could sign anything with the real key, can put such a file there.
    @Test func aFileHoldingAnotherSeedUnderTheKeysNameSignsWhatDoesNotVerify() throws {
        let home = temporaryDirectory()
        let keys = try KeyDirectory(home: home)
        let (kid, publicKey) = try keys.createKey()
        let file = keys.file(for: kid) + KeyDirectory.unrecordedSuffix
        #expect(unlink(file) == 0)
        try KeyFile.create(at: file, contents: try Ed25519PrivateKey.generate().pkcs8PEM())
        #expect(throws: TenderError.self) { try KeyDirectory(home: home).signer(keyID: kid) }
        let signer = try KeyDirectory(home: home).signer(keyID: kid, recordedPublicKey: publicKey)
        #expect(!(try Ed25519PublicKey(bytes: publicKey).isValidSignature(try signer.sign(Self.message), of: Self.message)))
    }
}
