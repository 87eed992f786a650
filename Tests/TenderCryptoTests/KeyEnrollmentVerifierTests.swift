// SPDX-License-Identifier: Apache-2.0
import Testing
import TenderCore
@testable import TenderCrypto

/// A key per machine (docs/scale.md): keys enrolled beside the first by `key_added` entries sign at once; a
/// `key_revoked` entry, signed by a key above it, takes a key out with every key it enrolled. Real signatures.
@Suite struct KeyEnrollmentVerifierTests {
    let crypto = OpenSSLLedgerCrypto()

    private func key() throws -> Ed25519Signer { try Ed25519Signer(key: try Ed25519PrivateKey.generate()) }

    /// What one entry is: a payment, an enrollment, a revocation or a rotation, and who signs it.
    private enum Step {
        case pay(Ed25519Signer)
        case enroll(Ed25519Signer, by: Ed25519Signer)
        case revoke(String, by: Ed25519Signer)
        case rotate(Ed25519Signer, to: Ed25519Signer)
    }

    /// The chain of `steps`, signed and linked as the store writes it.
    private func chain(_ steps: [Step]) throws -> [LedgerEntry] {
        var entries: [LedgerEntry] = []
        var previous = LedgerPosition.genesisHash
        for (index, step) in steps.enumerated() {
            let position = LedgerPosition(sequence: Int64(index + 1), previousHash: previous, createdAtMilliseconds: 0)
            let payload: String
            let signer: Ed25519Signer
            switch step {
            case let .pay(by):
                payload = JSONWriter.string(.object(position.members(type: "payment")))
                signer = by
            case let .enroll(new, by):
                payload = KeyEnrollment.added(at: position, newKeyID: new.keyID, newPublicKey: new.publicKey)
                signer = by
            case let .revoke(kid, by):
                payload = KeyEnrollment.revoked(at: position, keyID: kid)
                signer = by
            case let .rotate(old, new):
                payload = KeyRotation.payload(at: position, newKeyID: new.keyID, newPublicKey: new.publicKey)
                signer = old
            }
            let jws = try CompactJWS.sign(payload: Array(payload.utf8), signer: signer)
            entries.append(LedgerEntry(sequence: Int64(index + 1), jws: jws.text))
            previous = try LedgerEntry.hash(ofPayload: jws.payload, crypto: crypto)
        }
        return entries
    }

    private func verify(_ steps: [Step], root: Ed25519Signer) throws -> LedgerVerifier.Report {
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: [root.keyID: root.publicKey])
        return try verifier.verify(try chain(steps))
    }

    private func expectRefused(_ steps: [Step], root: Ed25519Signer, naming text: String) {
        #expect {
            _ = try verify(steps, root: root)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains(text)
        }
    }

    @Test func anEnrolledKeySignsBesideTheOneThatEnrolledIt() throws {
        let (a, b) = (try key(), try key())
        let report = try verify([.pay(a), .enroll(b, by: a), .pay(b), .pay(a), .pay(b)], root: a)
        #expect(report.count == 5 && report.keyIDs == [a.keyID, b.keyID])
    }

    @Test func aKeyNobodyEnrolledSignsNothing() throws {
        let (a, b, c) = (try key(), try key(), try key())
        expectRefused([.pay(a), .enroll(b, by: a), .pay(c)], root: a, naming: "record 3: signed by key \(c.keyID), which was not one of the keys")
        // An enrollment signed by a key that does not sign is itself refused.
        expectRefused([.pay(a), .enroll(c, by: b), .pay(c)], root: a, naming: "record 2: signed by key \(b.keyID)")
    }

    @Test func aRevokedKeyAndEveryKeyItEnrolledSignNoMore() throws {
        let (a, b, c) = (try key(), try key(), try key())
        let before: [Step] = [.pay(a), .enroll(b, by: a), .enroll(c, by: b), .pay(c), .revoke(b.keyID, by: a)]
        #expect(try verify(before + [.pay(a)], root: a).count == 6)
        expectRefused(before + [.pay(b)], root: a, naming: "record 6: signed by key \(b.keyID), which was revoked before it")
        expectRefused(before + [.pay(c)], root: a, naming: "record 6: signed by key \(c.keyID), which was revoked before it")
        // A revoked key is not enrolled again.
        expectRefused(before + [.enroll(b, by: a)], root: a, naming: "record 6: the key enrollment names a key that signs already or was revoked")
    }

    @Test func aKeyCannotRevokeItselfNorOneThatDoesNotSign() throws {
        let (a, b, c) = (try key(), try key(), try key())
        expectRefused([.pay(a), .enroll(b, by: a), .revoke(b.keyID, by: b)], root: a, naming: "record 3: a key revocation signed by the key it revokes")
        expectRefused([.pay(a), .revoke(c.keyID, by: a)], root: a, naming: "record 2: a key revocation that names no key signing then")
    }

    @Test func onlyAKeyAboveMayRevokeSoNoMachineLocksOutTheOthers() throws {
        let (a, b, c, d) = (try key(), try key(), try key(), try key())
        let tree: [Step] = [.pay(a), .enroll(b, by: a), .enroll(d, by: a), .enroll(c, by: b)]
        // The first key revokes a grandchild: allowed, and only that branch goes.
        let steps = tree + [.revoke(c.keyID, by: a), .pay(b), .pay(d)]
        #expect(try verify(steps, root: a).count == 7)
        // A key cannot revoke the key that enrolled it, nor a sibling: one compromised machine cannot lock the others out.
        expectRefused(tree + [.revoke(a.keyID, by: b)], root: a, naming: "record 5: a key revocation signed by \(b.keyID), which did not enroll")
        expectRefused(tree + [.revoke(d.keyID, by: b)], root: a, naming: "record 5: a key revocation signed by \(b.keyID), which did not enroll")
        expectRefused(tree + [.revoke(d.keyID, by: c)], root: a, naming: "which did not enroll")
    }

    @Test func aRotatedKeyHandsOverWhatItEnrolledAndTheRevocationReachesIt() throws {
        let (a, b, b2, c) = (try key(), try key(), try key(), try key())
        let steps: [Step] = [.pay(a), .enroll(b, by: a), .enroll(c, by: b), .rotate(b, to: b2), .pay(b2), .pay(c), .revoke(b2.keyID, by: a)]
        #expect(try verify(steps, root: a).keyIDs == [a.keyID, b.keyID, b2.keyID, c.keyID])
        expectRefused(steps + [.pay(c)], root: a, naming: "signed by key \(c.keyID), which was revoked before it")
        // A rotation cannot bring a revoked key back, nor hand over to another machine's key.
        let (x, y) = (try key(), try key())
        expectRefused(
            [.pay(a), .enroll(x, by: a), .enroll(y, by: a), .revoke(x.keyID, by: a), .rotate(y, to: x)], root: a,
            naming: "record 5: the key rotation hands over to a key that signs already or was revoked")
        expectRefused([.pay(a), .enroll(x, by: a), .rotate(a, to: x)], root: a, naming: "record 3: the key rotation hands over")
        // The rotated-away key signs nothing after its rotation, as on one machine.
        expectRefused(Array(steps[0..<4]) + [.pay(b)], root: a, naming: "record 5: signed by key \(b.keyID), which was not one of the keys")
    }

    /// Adversarial review: a rotation names its new key by its public half only, so a key holder could "rotate" into a
    /// key that signs already (a sibling, the first key) and so become its enroller, then revoke it; or rotate into a
    /// revoked key and bring it back. A rotation's new key must be new, as an enrollment's is.
    @Test func aRotationCannotAdoptASigningKeyNorRaiseARevokedOne() throws {
        let (a, b, c, d, r) = (try key(), try key(), try key(), try key(), try key())
        let tree: [Step] = [.pay(a), .enroll(b, by: a), .enroll(d, by: a), .enroll(c, by: b)]
        // c (enrolled by b) rotates into its uncle d: b would then be d's enroller and revoke its sibling.
        expectRefused(tree + [.rotate(c, to: d), .revoke(d.keyID, by: b), .pay(b)], root: a,
                      naming: "record 5: the key rotation hands over to a key that signs already or was revoked")
        // Into the first key: b would become the first key's enroller and revoke every key.
        expectRefused(tree + [.rotate(c, to: a), .revoke(a.keyID, by: b)], root: a,
                      naming: "record 5: the key rotation hands over to a key that signs already or was revoked")
        // Into a revoked key: it would sign again.
        expectRefused([.pay(a), .enroll(b, by: a), .enroll(r, by: a), .revoke(r.keyID, by: a), .rotate(b, to: r), .pay(r)], root: a,
                      naming: "record 5: the key rotation hands over to a key that signs already or was revoked")
    }

    /// A checkpoint of the first `count` entries of `entries`, signed by `signer`.
    private func checkpoint(of entries: [LedgerEntry], count: Int, by signer: Ed25519Signer, first: String? = nil) throws -> String {
        var head = LedgerPosition.genesisHash
        for entry in entries.prefix(count) { head = try LedgerEntry.hash(ofPayload: try CompactJWS(parsing: entry.jws).payload, crypto: crypto) }
        let payload = Checkpoint.payload(count: Int64(count), headHash: head, createdAtMilliseconds: 0, firstKeyID: first)
        return try CompactJWS.sign(payload: Array(payload.utf8), signer: signer).text
    }

    private func verify(_ entries: [LedgerEntry], root: Ed25519Signer, checkpoint: String) throws -> LedgerVerifier.Report {
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: [root.keyID: root.publicKey])
        return try verifier.verify(entries, checkpoint: checkpoint)
    }

    /// noticed.md: a checkpoint signed by a since-revoked key was accepted whatever length it covered, so a revoked
    /// machine's key vouched for a ledger it no longer signed. Its signer must sign at the length it covers: a revoked
    /// (or rotated-away) key's checkpoints of the ledger before its revocation still verify (older ledgers keep verifying).
    @Test func aCheckpointIsSignedByAKeySigningAtTheLengthItCovers() throws {
        let (a, b, c, a2) = (try key(), try key(), try key(), try key())
        let steps: [Step] = [
            .pay(a), .enroll(b, by: a), .pay(b), .enroll(c, by: b), .pay(c), .revoke(b.keyID, by: a), .pay(a), .rotate(a, to: a2), .pay(a2),
        ]
        let entries = try chain(steps)
        // Signed while it signed: before its revocation (entry 6), and from its enrollment (entry 2) on.
        for count in [2, 3, 5] { #expect(try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: count, by: b)).count == 9) }
        // After its revocation, the revoked key, and the key it enrolled (revoked with it), vouch for nothing.
        for (count, signer) in [(6, b), (7, b), (9, b), (6, c), (9, c)] {
            #expect {
                _ = try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: count, by: signer))
            } throws: { error in
                guard case let .ledgerTampered(message) = error as? TenderError else { return false }
                return message.contains("checkpoint: signed by key \(signer.keyID), which did not sign when the ledger held \(count) records")
            }
        }
        // Before its enrollment, an enrolled key vouches for nothing either.
        #expect(throws: TenderError.self) { _ = try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 1, by: b)) }
        // A rotated-away key: its checkpoints up to the rotation verify, not after; the new key's from the rotation on.
        #expect(try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 7, by: a)).count == 9)
        #expect(throws: TenderError.self) { _ = try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 8, by: a)) }
        #expect(try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 8, by: a2)).count == 9)
        #expect(try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 9, by: a2)).count == 9)
        #expect(throws: TenderError.self) { _ = try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 7, by: a2)) }
        // The first key at length 0, and a truncated ledger is still named as such.
        #expect(try verify(entries, root: a, checkpoint: try checkpoint(of: entries, count: 0, by: a)).count == 9)
        let longer = try checkpoint(of: try chain(steps + [.pay(a2)]), count: 10, by: a2)
        #expect {
            _ = try verify(entries, root: a, checkpoint: longer)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("it was truncated")
        }
    }

    /// Adversarial review (advmends): the hashes cover the payloads, not who signed them, and the first key is the only one no
    /// payload names. The same records with the first key's signatures made again by another key (one a database writer
    /// recorded as the store's first) met a checkpoint signed by an enrolled key, and that key signed on after them. A
    /// checkpoint naming the first key (`firstKid`, as the store now signs one) refuses them; one of the earlier format is still
    /// met (pin the first key, or take a new checkpoint).
    @Test func aCheckpointNamingTheFirstKeyRefusesTheRecordsSignedAgainByAnother() throws {
        let (a, b, k) = (try key(), try key(), try key())
        let genuine = try chain([.pay(a), .enroll(b, by: a), .pay(b), .pay(a)])
        let forged = try chain([.pay(k), .enroll(b, by: k), .pay(b), .pay(k), .pay(k)])
        let named = try checkpoint(of: genuine, count: 4, by: b, first: a.keyID)
        #expect(try verify(genuine, root: a, checkpoint: named).count == 4)
        #expect(try verify(genuine + [try chain([.pay(a), .enroll(b, by: a), .pay(b), .pay(a), .pay(b)])[4]], root: a, checkpoint: named).count == 5)
        #expect {
            _ = try verify(forged, root: k, checkpoint: named)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("not by \(a.keyID), the first key the checkpoint names")
        }
        #expect(try verify(forged, root: k, checkpoint: try checkpoint(of: genuine, count: 4, by: b)).keyIDs == [k.keyID, b.keyID])
        // A firstKid that is not text is no checkpoint.
        let odd = JSONWriter.string(.object([("type", .string("checkpoint")), ("count", .number("4")), ("headHash", .string("x")), ("firstKid", .number("1"))]))
        #expect(throws: TenderError.self) { _ = try verify(genuine, root: a, checkpoint: try CompactJWS.sign(payload: Array(odd.utf8), signer: b).text) }
    }

    /// Adversarial review (advmends), kept as a record of what held: a key rotated away and then rotated back into (from the key
    /// it handed over to) signs again from that rotation, so its checkpoints verify in either span and in neither gap; a key
    /// enrolled at entry N vouches from length N on, a key revoked at entry N up to N - 1; a revoked key is not enrolled again.
    @Test func aCheckpointsSignerIsCheckedAtEachBoundaryOfItsSpans() throws {
        let (a, a2, b) = (try key(), try key(), try key())
        let entries = try chain([.pay(a), .rotate(a, to: a2), .pay(a2), .rotate(a2, to: a), .pay(a), .enroll(b, by: a), .revoke(b.keyID, by: a), .pay(a)])
        for (count, signer, taken) in [
            (0, a, true), (1, a, true), (2, a, false), (3, a, false), (4, a, true), (8, a, true), (1, a2, false), (2, a2, true), (3, a2, true),
            (4, a2, false), (5, b, false), (6, b, true), (7, b, false),
        ] {
            let made = try checkpoint(of: entries, count: count, by: signer, first: a.keyID)
            if taken {
                #expect(try verify(entries, root: a, checkpoint: made).count == 8, "count \(count)")
            } else {
                #expect(throws: TenderError.self, "count \(count)") { _ = try verify(entries, root: a, checkpoint: made) }
            }
        }
        expectRefused([.pay(a), .enroll(b, by: a), .revoke(b.keyID, by: a), .enroll(b, by: a)], root: a,
                      naming: "record 4: the key enrollment names a key that signs already or was revoked")
    }

    /// Adversarial review (advmends): a verifier used again kept the keys (and payments) of the ledger it verified before, so
    /// a checkpoint of an empty ledger signed by a key that ledger had enrolled was taken (a fresh verifier refuses it).
    @Test func aVerifierUsedAgainTrustsNothingOfTheLedgerBefore() throws {
        let (a, b) = (try key(), try key())
        var verifier = LedgerVerifier(crypto: crypto, trustedKeys: [a.keyID: a.publicKey])
        _ = try verifier.verify(try chain([.pay(a), .enroll(b, by: a), .pay(b)]))
        let empty = try checkpoint(of: [], count: 0, by: b)
        #expect(throws: TenderError.self) { _ = try verifier.verify([], checkpoint: empty) }
        #expect(verifier.trustedKeys.keys.sorted() == [a.keyID])
    }
}
