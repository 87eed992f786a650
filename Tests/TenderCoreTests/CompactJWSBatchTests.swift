// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// A signer whose "signature" is the last 64 bytes of the message, zero-padded: enough to tell messages apart.
private struct TaggingSigner: RecordSigner {
    let keyID = "test-key"
    func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] {
        let tail = Array(message.suffix(64))
        return tail + [UInt8](repeating: 0, count: 64 - tail.count)
    }
    func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] { Array(message.prefix(32)) }
}

@Suite struct CompactJWSBatchTests {
    @Test func theDefaultBatchSignsEachPayloadInOrder() throws {
        let signer = TaggingSigner()
        let payloads = ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"].map { Array($0.utf8) }
        let batch = CompactJWS.Batch(signer: signer, capacity: 3)
        for payload in payloads { try batch.add(payload: payload) }
        let tokens = try batch.finish()
        #expect(tokens.count == 3)
        for (token, payload) in zip(tokens, payloads) {
            let parsed = try CompactJWS(parsing: token)
            #expect(parsed.payload == payload)
            #expect(parsed.keyID == "test-key" && parsed.algorithm == "Ed25519")
            #expect(parsed.signature == (try signer.sign(parsed.signingInput)))
        }
        batch.abandon()
    }

    @Test func theDefaultBatchRefusesMoreThanItsCapacity() throws {
        let batch = CompactJWS.Batch(signer: TaggingSigner(), capacity: 1)
        try batch.add(payload: [1])
        #expect(throws: TenderError.self) { try batch.add(payload: [2]) }
        #expect(try batch.finish().count == 1)
    }
}
