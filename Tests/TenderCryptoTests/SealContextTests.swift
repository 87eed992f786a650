// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
@testable import TenderCrypto
import TenderTestSupport

/// Issue 34 (the group commit's serial section): a seal is made on a copy of an HMAC context keyed once per key, not
/// by a one-shot HMAC that fetched the algorithm and hashed the key's pads every time. The seal is the same
/// HMAC-SHA-256 under the same secret (computed here from RFC 2104's definition on the module's SHA-256, not OpenSSL's
/// HMAC), and threads sealing at once on one key all get it (the keyed context is shared, only read).
@Suite struct SealContextTests {
    /// HMAC-SHA-256 by its definition: H((K ^ opad) || H((K ^ ipad) || message)), K padded to the 64-byte block.
    static func hmac(key: [UInt8], _ message: [UInt8]) throws -> [UInt8] {
        let block = key + [UInt8](repeating: 0, count: 64 - key.count)
        let inner = try SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return try SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// The seal's secret, as docs/ledger.md states it: SHA-256 of the label and the 32-byte seed.
    static func sealKey(seed: [UInt8]) throws -> [UInt8] { try SHA256.hash(Array("tender ledger seal v1".utf8) + seed) }

    @Test func aSealIsTheHMACOfTheMessageUnderTheKeysSealSecret() throws {
        let key = try Ed25519PrivateKey(seed: KeyPEMTests.seed)
        let secret = try Self.sealKey(seed: KeyPEMTests.seed)
        for message in [[], Array("a record".utf8), [UInt8](repeating: 0x41, count: 1_800), [UInt8](repeating: 7, count: 64)] {
            #expect(try key.seal(message) == Self.hmac(key: secret, message))
        }
        // Another key seals the same message otherwise.
        let other = try Ed25519PrivateKey(seed: [UInt8](repeating: 9, count: 32))
        #expect(try other.seal(Array("a record".utf8)) != key.seal(Array("a record".utf8)))
    }

    /// Eight threads seal on one key at once, from its first seal (the keyed context made while others ask for it).
    @Test func threadsSealingAtOnceShareTheKeyedContext() throws {
        let key = try Ed25519PrivateKey(seed: KeyPEMTests.seed)
        let secret = try Self.sealKey(seed: KeyPEMTests.seed)
        let messages = (0..<64).map { Array("record \($0)".utf8) + [UInt8](repeating: UInt8($0), count: $0 * 20) }
        let expected = try messages.map { try Self.hmac(key: secret, $0) }
        let wrong = Atomic<Int>(0)
        TestThread.run(8) { thread in
            for round in 0..<50 {
                let index = (thread * 7 + round) % messages.count
                if (try? key.seal(messages[index])) != expected[index] { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }
}
