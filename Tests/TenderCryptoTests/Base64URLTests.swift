// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore

@Suite struct Base64URLTests {
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func urlSafeAlphabetAndStrictDecoding() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zh") == nil)  // non-zero leftover bits
        #expect(Base64URL.decode("a+b/") == nil)
    }
}
