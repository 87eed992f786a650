// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore
@testable import TenderCrypto

/// A key file as Tender writes it is read from its seed without OpenSSL's decoders; every other text goes to
/// OpenSSL as before, and both give the same key.
@Suite struct KeyPEMTests {
    /// RFC 8032 section 7.1, test 1: the secret key and its public key.
    static let seed = hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let publicKey = hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")

    static func pem(_ body: String, newline: String = "\n", final: String = "\n") -> [UInt8] {
        Array(("-----BEGIN PRIVATE KEY-----" + newline + body + newline + "-----END PRIVATE KEY-----" + final).utf8)
    }

    @Test func theRFC8032KeyIsReadFromItsSeed() throws {
        let pem = Self.pem("MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g")
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: pem) == Self.seed)
        #expect(try Ed25519PrivateKey(pem: pem).publicKeyBytes() == Self.publicKey)
        // Without the final newline too.
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: Self.pem("MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g", final: "")) == Self.seed)
    }

    @Test func everyKeyTenderWritesIsReadFromItsSeedAndSignsAlike() throws {
        for _ in 0..<20 {
            let key = try Ed25519PrivateKey.generate()
            let pem = try key.pkcs8PEM()
            #expect(Ed25519PrivateKey.seed(ofTenderPEM: pem) != nil)
            let read = try Ed25519PrivateKey(pem: pem)
            #expect(try read.publicKeyBytes() == key.publicKeyBytes())
            let message = Array("a record".utf8)
            #expect(try read.sign(message) == key.sign(message))
            #expect(try read.seal(message) == key.seal(message))
        }
    }

    @Test func otherTextsAreLeftToOpenSSL() throws {
        let body = "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g"
        // CRLF lines: not Tender's shape, but OpenSSL reads the same key.
        let crlf = Self.pem(body, newline: "\r\n", final: "\r\n")
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: crlf) == nil)
        #expect(try Ed25519PrivateKey(pem: crlf).publicKeyBytes() == Self.publicKey)
        // An X25519 key (OID 1.3.101.110) of the same shape is refused, as before.
        let x25519 = Self.pem("MC4CAQAwBQYDK2VuBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g")
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: x25519) == nil)
        #expect(throws: TenderError.self) { try Ed25519PrivateKey(pem: x25519) }
        // A character outside the base64 alphabet, a line too short, other labels, text after the footer.
        let broken = Self.pem("MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v*VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g")
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: broken) == nil)
        #expect(throws: TenderError.self) { try Ed25519PrivateKey(pem: broken) }
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: Self.pem(String(body.dropLast(4)))) == nil)
        let encrypted = Array(("-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + body + "\n-----END ENCRYPTED PRIVATE KEY-----\n").utf8)
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: encrypted) == nil)
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: Self.pem(body) + Array("x".utf8)) == nil)
        #expect(Ed25519PrivateKey.seed(ofTenderPEM: []) == nil)
    }
    /// Every text differing from a key file in one byte: the seed read directly is the key OpenSSL reads, or the
    /// text is left to OpenSSL (an adversary's edit never makes the two readers disagree).
    @Test func oneByteEditsAreReadAsOpenSSLReadsThemOrLeftToIt() throws {
        let key = try Ed25519PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        var direct = 0
        for index in pem.indices {
            for value: UInt8 in [0x00, 0x0A, 0x0D, 0x20, 0x2B, 0x2D, 0x2F, 0x30, 0x3D, 0x41, 0x61, pem[index] ^ 0x01, pem[index] ^ 0x20] {
                guard value != pem[index] else { continue }
                var edited = pem
                edited[index] = value
                guard let seed = Ed25519PrivateKey.seed(ofTenderPEM: edited) else { continue }
                direct += 1
                let mine = try Ed25519PrivateKey(seed: seed).publicKeyBytes()
                let theirs = try? Ed25519PrivateKey(openSSLPEM: edited).publicKeyBytes()
                #expect(theirs == mine, "byte \(index) set to \(value): OpenSSL reads another key or none")
            }
        }
        // Edits of the seed's characters change the key, and both readers agree on the new one.
        #expect(direct > 0)
    }
}
