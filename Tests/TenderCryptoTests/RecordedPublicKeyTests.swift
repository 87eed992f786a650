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

    /// Adversary review (issue 34): what the thumbprint cannot see, the file named after the key holding another key's
    /// seed (a corrupted file, or one a writer of keys/ replaced). Read alone, it is refused as before; with the key's
    /// own recorded public key it is taken (no derivation at the open), but its first signature or seal derives the
    /// seed once and throws, every time: it never makes a signature the recorded key does not verify. Failed on the
    /// branch's head (the signature was made, and did not verify).
    @Test func aFileHoldingAnotherSeedUnderTheKeysNameSignsNothing() throws {
        let home = temporaryDirectory()
        let keys = try KeyDirectory(home: home)
        let (kid, publicKey) = try keys.createKey()
        let file = keys.file(for: kid) + KeyDirectory.unrecordedSuffix
        #expect(unlink(file) == 0)
        try KeyFile.create(at: file, contents: try Ed25519PrivateKey.generate().pkcs8PEM())
        #expect(throws: TenderError.self) { try KeyDirectory(home: home).signer(keyID: kid) }
        let signer = try KeyDirectory(home: home).signer(keyID: kid, recordedPublicKey: publicKey)
        for _ in 0..<2 {
            #expect(throws: TenderError.self) { _ = try signer.sign(Self.message) }
            #expect(throws: TenderError.self) { _ = try signer.seal(Self.message) }
            let batch = signer.startBatch(capacity: 1)
            #expect(throws: TenderError.self) {
                try batch.add(Self.message)
                _ = try batch.finish()
            }
            batch.abandon()
        }
        // The key's own file again: the same recorded public key signs, checked once, and verifies.
        #expect(unlink(file) == 0)
        let genuine = try Ed25519PrivateKey(seed: KeyPEMTests.seed)
        let (genuineID, genuinePublic) = (try Ed25519Signer(key: genuine).keyID, try genuine.publicKeyBytes())
        try KeyFile.create(at: keys.file(for: genuineID), contents: try genuine.pkcs8PEM())
        let paired = try KeyDirectory(home: home).signer(keyID: genuineID, recordedPublicKey: genuinePublic)
        for _ in 0..<2 { #expect(try Ed25519PublicKey(bytes: genuinePublic).isValidSignature(try paired.sign(Self.message), of: Self.message)) }
    }
}
