// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Testing
import TenderCore
@testable import TenderCrypto

/// SHA-256 through OpenSSL with its implementation fetched once for the process (issue 34: the implicit fetch
/// `EVP_sha256()` makes at every digest was ~1.6 % of a payment's handle): the same answers, from any thread.
@Suite struct SHA256Tests {
    @Test func digestsUseTheImplementationFetchedOnce() {
        #expect(SHA256.usesFetchedImplementation)
    }

    @Test func knownAnswersAndTheCoresOwnDigestAgree() throws {
        #expect(try SHA256.hash([]) == hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        #expect(try SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
        // Lengths around the block and padding boundaries, and a record's size.
        for length in [55, 56, 63, 64, 65, 119, 120, 1_800] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(try SHA256.hash(bytes) == CanonicalSHA256.digest(bytes), "length \(length)")
        }
    }

    @Test func threadsShareTheFetchedImplementation() throws {
        let bytes = Array(repeating: UInt8(0x61), count: 700)
        let expected = CanonicalSHA256.digest(bytes)
        let wrong = WrongCounts(threads: 4)
        let threads = (0..<4).map { index in
            TestThread {
                for _ in 0..<500 where (try? SHA256.hash(bytes)) != expected { wrong.slots[index] += 1 }
            }
        }
        threads.forEach { $0.join() }
        #expect((0..<4).allSatisfy { wrong.slots[$0] == 0 })
    }
}

/// One count a thread, each written by its own thread only and read after the joins.
private final class WrongCounts: @unchecked Sendable {
    let slots: UnsafeMutablePointer<Int>
    init(threads: Int) {
        slots = .allocate(capacity: threads)
        slots.initialize(repeating: 0, count: threads)
    }
    deinit { slots.deallocate() }
}
