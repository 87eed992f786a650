// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore
@testable import TenderCrypto

/// Known-answer vectors from RFC 8032 (Ed25519), RFC 8037 (JOSE) and RFC 7638 (thumbprints).
@Suite struct KnownAnswerTests {
    @Test(arguments: [
        // RFC 8032 §7.1, TEST 1, 2 and 3.
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ])
    func rfc8032(secret: String, publicKey: String, message: String, signature: String) throws {
        let key = try Ed25519PrivateKey(seed: hex(secret))
        #expect(try key.publicKeyBytes() == hex(publicKey))
        #expect(try key.sign(hex(message)) == hex(signature))
        let verifier = try Ed25519PublicKey(bytes: hex(publicKey))
        #expect(verifier.isValidSignature(hex(signature), of: hex(message)))
        var bad = hex(signature)
        bad[0] ^= 1
        #expect(!verifier.isValidSignature(bad, of: hex(message)))
    }

    /// RFC 8037 appendix A.1, A.3 and A.4: the key, its thumbprint and the JWS example.
    @Test func rfc8037() throws {
        let seed = try #require(Base64URL.decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"))
        let key = try Ed25519PrivateKey(seed: seed)
        #expect(Base64URL.encode(try key.publicKeyBytes()) == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
        #expect(try Ed25519Signer(key: key).keyID == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        let input = Array("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        let signature = try key.sign(input)
        #expect(Base64URL.encode(signature)
            == "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg")
        #expect(try Ed25519PublicKey(bytes: try key.publicKeyBytes()).isValidSignature(signature, of: input))
        // Ledger entries need a kid; "EdDSA" is accepted as the algorithm, HS256 is not.
        #expect(throws: TenderError.ledgerTampered("the JWS header has no kid")) {
            _ = try CompactJWS(parsing: "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc." + Base64URL.encode(signature))
        }
        let withKid = Base64URL.encode(Array(#"{"alg":"EdDSA","kid":"k"}"#.utf8))
        #expect(try CompactJWS(parsing: withKid + ".e30.AA").algorithm == "EdDSA")
        #expect(throws: TenderError.self) { _ = try CompactJWS(parsing: "eyJhbGciOiJIUzI1NiJ9.e30.AA") }
    }

    /// RFC 7638 §3.1: the thumbprint of the RSA example key.
    @Test func rfc7638() throws {
        let n = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        let thumbprint = try JWK.thumbprint(requiredMembers: ["e": "AQAB", "kty": "RSA", "n": n], crypto: OpenSSLLedgerCrypto())
        #expect(thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test func sha256() throws {
        #expect(try SHA256.hash(Array("abc".utf8)) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }

    @Test func pemRoundTrips() throws {
        let key = try Ed25519PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try Ed25519PrivateKey(pem: pem).publicKeyBytes() == key.publicKeyBytes())
        let publicPEM = try Ed25519PublicKey(bytes: try key.publicKeyBytes()).pem()
        #expect(try Ed25519PublicKey(pem: Array(publicPEM.utf8)).bytes == key.publicKeyBytes())
        #expect(throws: TenderError.self) { try Ed25519PrivateKey(pem: Array("not a key".utf8)) }
    }
}
