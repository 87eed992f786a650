// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore

/// The message a claim's seal signs: domain-separated from every JWS signing input, and one claim's message is
/// never another's (each field carries its length, so moving bytes between fields changes it).
@Suite struct ClaimSealTests {
    private func message(_ fields: [String]) -> [UInt8] {
        ClaimSeal.message(keyID: fields[0], idempotencyKey: fields[1], fingerprint: fields[2], body: fields[3], token: fields[4])
    }

    @Test func fieldsMovedBetweenEachOtherMakeAnotherMessage() {
        let base = ["kid", "key", "fingerprint", #""ledger":{}"#, "token"]
        let shifted = ["kid", "keyf", "ingerprint", #""ledger":{}"#, "token"]
        #expect(message(base) != message(shifted))
        for index in base.indices {
            var changed = base
            changed[index] += "x"
            #expect(message(changed) != message(base))
        }
        #expect(message(base) == message(base))
    }

    @Test func aSealIsNeverAJWSSigningInput() {
        // A JWS signing input is base64url and one dot; the seal's message starts with a slash and a NUL.
        let bytes = message(["a", "b", "c", "d", "e"])
        #expect(bytes.starts(with: Array("tender/claim-seal/1".utf8)) && bytes.contains(0) && bytes.contains(UInt8(ascii: "/")))
    }
}
