// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore
@testable import TenderCrypto

/// The verifier against real signatures: every kind of tampering is named.
@Suite struct LedgerVerifierTests {
    let crypto = OpenSSLLedgerCrypto()

    /// A chain of `count` entries signed by `signer`, as the store writes it.
    private func chain(_ count: Int, signer: Ed25519Signer, note: String = "") throws -> [LedgerEntry] {
        var entries: [LedgerEntry] = []
        var previous = LedgerPosition.genesisHash
        for index in 1...count {
            let position = LedgerPosition(sequence: Int64(index), previousHash: previous, createdAtMilliseconds: 0)
            var members = position.members(type: "payment")
            members.append(("amount", .string("\(index).00\(note)")))
            let jws = try CompactJWS.sign(payload: Array(JSONWriter.string(.object(members)).utf8), signer: signer)
            entries.append(LedgerEntry(sequence: Int64(index), jws: jws.text))
            previous = try LedgerEntry.hash(ofPayload: jws.payload, crypto: crypto)
        }
        return entries
    }

    private func verifier(_ signer: Ed25519Signer) -> LedgerVerifier {
        LedgerVerifier(crypto: crypto, trustedKeys: [signer.keyID: signer.publicKey])
    }

    private func expectTampered(_ entries: [LedgerEntry], _ signer: Ed25519Signer, checkpoint: String? = nil, naming text: String) {
        var v = verifier(signer)
        #expect {
            _ = try v.verify(entries, checkpoint: checkpoint)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains(text)
        }
    }

    @Test func anIntactChainVerifies() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let entries = try chain(5, signer: signer)
        var v = verifier(signer)
        let report = try v.verify(entries)
        #expect(report.count == 5 && report.keyIDs == [signer.keyID])
        var empty = verifier(signer)
        #expect(try empty.verify([]).headHash == LedgerPosition.genesisHash)
    }

    @Test func aVerifiedChainLeavesEachPayloadAndHashAndAFailedOneNone() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain(4, signer: signer)
        var v = verifier(signer)
        let report = try v.verify(entries)
        #expect(v.payloads.count == 4 && v.hashes.count == 4 && v.hashes.last == report.headHash)
        #expect(v.payloads[2]["amount"]?.stringValue == "3.00" && v.payloads[2]["sequence"] == .number("3"))
        for (index, entry) in entries.enumerated() {
            let payload = try CompactJWS(parsing: entry.jws).payload
            #expect(v.hashes[index] == (try LedgerEntry.hash(ofPayload: payload, crypto: crypto)))
        }
        entries.remove(at: 1)
        #expect(throws: TenderError.self) { _ = try v.verify(entries) }
        #expect(v.payloads.isEmpty && v.hashes.isEmpty)
    }

    @Test func anEditedPayloadIsNamed() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain(5, signer: signer)
        let parts = entries[2].jws.split(separator: ".")
        var payload = try #require(Base64URL.decode(parts[1]))
        payload[payload.count - 3] ^= 1
        entries[2] = LedgerEntry(sequence: 3, jws: "\(parts[0]).\(Base64URL.encode(payload)).\(parts[2])")
        expectTampered(entries, signer, naming: "record 3: the signature does not verify")
    }

    @Test func deletedInsertedAndReorderedEntriesAreNamed() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let entries = try chain(5, signer: signer)
        // Deleted, with the stored positions renumbered to hide it.
        var deleted = entries
        deleted.remove(at: 2)
        deleted = deleted.enumerated().map { LedgerEntry(sequence: Int64($0.offset + 1), jws: $0.element.jws) }
        expectTampered(deleted, signer, naming: "record 3: its signed sequence number is not 3")
        // Swapped.
        var swapped = entries
        swapped[1] = LedgerEntry(sequence: 2, jws: entries[3].jws)
        swapped[3] = LedgerEntry(sequence: 4, jws: entries[1].jws)
        expectTampered(swapped, signer, naming: "record 2")
        // A copy inserted.
        var inserted = entries
        inserted.insert(entries[0], at: 1)
        inserted = inserted.enumerated().map { LedgerEntry(sequence: Int64($0.offset + 1), jws: $0.element.jws) }
        expectTampered(inserted, signer, naming: "record 2")
        // A gap in the stored positions.
        var gap = entries
        gap[4] = LedgerEntry(sequence: 9, jws: entries[4].jws)
        expectTampered(gap, signer, naming: "record 5: stored at position 9")
    }

    @Test func aBadSignatureBeforeABrokenLinkIsNamedFirst() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain(6, signer: signer)
        var signature = Array(entries[1].jws.utf8)
        signature[signature.count - 5] = signature[signature.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        entries[1] = LedgerEntry(sequence: 2, jws: String(decoding: signature, as: UTF8.self))
        entries.remove(at: 4)
        expectTampered(entries, signer, naming: "record 2: the signature does not verify")
    }

    @Test func progressIsToldInOrderAndBatchesNameTheSameRecord() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let count = LedgerVerifier.progressBatch + 300  // two signature batches
        var entries = try chain(count, signer: signer)
        var steps: [(Int, Int)] = []
        var v = verifier(signer)
        #expect(try v.verify(entries) { steps.append(($0, $1)) }.count == Int64(count))
        #expect(steps.allSatisfy { $0.1 == 2 * count })
        #expect(steps.map(\.0) == steps.map(\.0).sorted() && steps.last?.0 == 2 * count)
        #expect(steps.contains { $0.0 == count + LedgerVerifier.progressBatch })
        // A bad signature in the second batch is the one named, with or without progress.
        let bad = LedgerVerifier.progressBatch + 7
        var signature = Array(entries[bad].jws.utf8)
        signature[signature.count - 5] = signature[signature.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        entries[bad] = LedgerEntry(sequence: Int64(bad + 1), jws: String(decoding: signature, as: UTF8.self))
        expectTampered(entries, signer, naming: "record \(bad + 1): the signature does not verify")
        var told = verifier(signer)
        #expect {
            _ = try told.verify(entries) { _, _ in }
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("record \(bad + 1): the signature does not verify")
        }
    }

    @Test func aForeignKeyIsNamed() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let intruder = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain(3, signer: signer)
        entries[1] = try chain(2, signer: intruder)[1]
        expectTampered(entries, signer, naming: "record 2: signed by key \(intruder.keyID), but \(signer.keyID) was the signing key then")
    }

    @Test func checkpointsCatchTruncationAndRewriting() throws {
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let entries = try chain(5, signer: signer)
        var v = verifier(signer)
        let head = try v.verify(Array(entries.prefix(4))).headHash
        let checkpoint = try CompactJWS.sign(
            payload: Array(Checkpoint.payload(count: 4, headHash: head, createdAtMilliseconds: 0).utf8), signer: signer
        ).text
        var later = verifier(signer)
        #expect(try later.verify(entries, checkpoint: checkpoint).count == 5)
        // Truncated below the checkpoint: the chain alone looks fine, the checkpoint does not.
        var alone = verifier(signer)
        #expect(try alone.verify(Array(entries.prefix(3))).count == 3)
        expectTampered(Array(entries.prefix(3)), signer, checkpoint: checkpoint, naming: "truncated")
        // Rewritten: a whole new chain signed by the same key.
        let rewritten = try chain(5, signer: signer, note: "0")
        expectTampered(rewritten, signer, checkpoint: checkpoint, naming: "rewritten")
    }

    @Test func rotationsHandOverTrust() throws {
        let first = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        let second = try Ed25519Signer(key: try Ed25519PrivateKey.generate())
        var entries = try chain(2, signer: first)
        var previous = try LedgerEntry.hash(ofPayload: try CompactJWS(parsing: entries[1].jws).payload, crypto: crypto)
        let rotation = KeyRotation.payload(
            at: LedgerPosition(sequence: 3, previousHash: previous, createdAtMilliseconds: 0), newKeyID: second.keyID,
            newPublicKey: second.publicKey)
        let rotationJWS = try CompactJWS.sign(payload: Array(rotation.utf8), signer: first).text
        entries.append(LedgerEntry(sequence: 3, jws: rotationJWS))
        previous = try LedgerEntry.hash(ofPayload: Array(rotation.utf8), crypto: crypto)
        let after = LedgerPosition(sequence: 4, previousHash: previous, createdAtMilliseconds: 0)
        let afterJWS = try CompactJWS.sign(payload: Array(JSONWriter.string(.object(after.members(type: "payment"))).utf8), signer: second)
        entries.append(LedgerEntry(sequence: 4, jws: afterJWS.text))
        var v = verifier(first)
        #expect(try v.verify(entries).keyIDs == [first.keyID, second.keyID])
        // A retired key can no longer sign after the rotation.
        var retired = entries
        let forged = LedgerPosition(sequence: 4, previousHash: previous, createdAtMilliseconds: 0)
        retired[3] = LedgerEntry(sequence: 4, jws: try CompactJWS.sign(
            payload: Array(JSONWriter.string(.object(forged.members(type: "payment"))).utf8), signer: first).text)
        expectTampered(retired, first, naming: "record 4: signed by key \(first.keyID), but \(second.keyID)")
        // Trusting both keys from the start does not let the new key sign before its rotation.
        var early = try chain(2, signer: second) + Array(entries[2...])
        early = early.enumerated().map { LedgerEntry(sequence: Int64($0.offset + 1), jws: $0.element.jws) }
        var both = LedgerVerifier(crypto: crypto, trustedKeys: [first.keyID: first.publicKey, second.keyID: second.publicKey])
        #expect(throws: TenderError.self) { _ = try both.verify(early) }
        // Without the rotation entry the new key is unknown.
        var withoutRotation = entries
        withoutRotation.remove(at: 2)
        withoutRotation = withoutRotation.enumerated().map { LedgerEntry(sequence: Int64($0.offset + 1), jws: $0.element.jws) }
        expectTampered(withoutRotation, first, naming: "record 3")
    }
}
