// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Dispatch
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// What verify sees of a store changed with SQL by someone without the key (issue 30, items 6 to 10
/// and 18): an older signed balance put back, a currency changed, an account deleted, a whole store
/// signed by another key, the testing-mode mark removed, the last records removed, and a read-only open.
@Suite struct SQLiteVerifyTests {
    private let usd = try! Currency(code: "USD")

    private func open(_ home: TemporaryHome) throws -> SQLiteStore { try SQLiteStoreTests.openStore(home.path) }

    private func readOnly(_ home: TemporaryHome) throws -> SQLiteStore {
        try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path, create: false), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
    }

    private func importAccounts(_ store: SQLiteStore, checking: String, currency: String = "USD") throws {
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse("""
            {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
             "accounts": [{"id": "checking", "type": "checking", "balance": {"amount": "\(checking)", "currency": "\(currency)"}, "default": true},
                          {"id": "savings", "type": "savings", "balance": {"amount": "5.00", "currency": "USD"}}]}
            """)))
    }

    private func pay(_ store: SQLiteStore, _ key: String, cents: Int64 = 100) throws {
        let amount = try Money(minorUnits: cents, currency: usd)
        _ = try store.submit(PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: key, amount: amount,
            movements: [BalanceMovement(accountID: "checking", currency: usd, delta: -cents)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment"))) })
    }

    private func execute(_ home: TemporaryHome, _ sql: String, _ arguments: [(any StoreBindable)?] = []) throws {
        try Database(path: home.path + "/" + SQLiteStore.fileName).statement(sql, arguments).run()
    }

    private func text(_ home: TemporaryHome, _ sql: String) throws -> String? {
        let row = try Database(path: home.path + "/" + SQLiteStore.fileName).statement(sql)
        guard try row.step() else { return nil }
        return row.text(0)
    }

    private func expectTampered(_ store: SQLiteStore, checkpoint: String? = nil, naming parts: [String]) {
        #expect {
            _ = try store.verify(checkpoint: checkpoint)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return parts.allSatisfy { message.contains($0) }
        }
    }

    // MARK: item 6

    @Test func anOlderSignedBalancePutBackIsNamed() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "2203.25")
        // What an attacker keeps: the balance and whatever the store keeps signed beside the account.
        let kept = try text(home, "SELECT balance_anchor FROM accounts WHERE id = 'checking'")
        try importAccounts(store, checking: "5.00")
        try pay(store, "after")
        #expect(try store.verify().count == 3)
        try execute(home, "UPDATE accounts SET balance_minor = 220225, balance_anchor = ? WHERE id = 'checking'", [kept])
        expectTampered(store, naming: ["checking", "stored 220225, derived 400"])
        // Removing the newer signed balance breaks the chain.
        try execute(home, "UPDATE accounts SET balance_minor = 400, balance_anchor = NULL WHERE id = 'checking'")
        #expect(try store.verify().count == 3)
        try execute(home, "DELETE FROM ledger WHERE sequence = 2")
        expectTampered(store, naming: ["record 2"])
    }

    @Test func theNewestSignedBalanceRemovedFromTheEndIsSeenOnlyAgainstACheckpoint() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "2203.25")
        try importAccounts(store, checking: "5.00")
        let checkpoint = try store.checkpoint()
        try execute(home, "DELETE FROM ledger WHERE sequence = 2")
        try execute(home, "UPDATE accounts SET balance_minor = 220325 WHERE id = 'checking'")
        #expect(try store.verify().count == 1)  // the end of a ledger is not signed by anything after it
        expectTampered(store, checkpoint: checkpoint, naming: ["truncated"])
    }

    // MARK: item 7

    @Test func aChangedCurrencyIsNamed() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "100.00")
        try pay(store, "a")
        try execute(home, "UPDATE accounts SET currency = 'EUR' WHERE id = 'checking'")
        expectTampered(store, naming: ["checking (stored currency EUR, signed USD"])
        try execute(home, "UPDATE accounts SET currency = 'USD' WHERE id = 'checking'")
        #expect(try store.verify().count == 2)
        // A currency the directory itself changes is signed with the balance.
        try importAccounts(store, checking: "7.00", currency: "EUR")
        #expect(try store.verify().count == 3)
    }

    @Test func aDeletedAccountRowIsNamedAndARemovalThroughTheDirectoryIsSigned() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "100.00")
        try pay(store, "a")
        try execute(home, "DELETE FROM accounts WHERE id = 'savings'")
        expectTampered(store, naming: ["savings (set by record 1, missing from the directory)"])
        try execute(home, "DELETE FROM accounts WHERE id = 'checking'")
        expectTampered(store, naming: ["checking (set by record 1, missing from the directory)"])

        let other = TemporaryHome()
        let kept = try open(other)
        try importAccounts(kept, checking: "100.00")
        try kept.removeFromDirectory(DirectoryRemoval(contacts: [], accounts: ["savings"], billPayees: [], bills: []))
        let report = try kept.verify()
        #expect(report.count == 2 && report.unchainedBalances.isEmpty)
        // A removed account put back with SQL is named.
        try execute(other, "INSERT INTO accounts (id, kind, currency, balance_minor, is_default, position) VALUES ('savings', 'saving', 'USD', 500, 0, 9)")
        expectTampered(kept, naming: ["savings (removed by record 2, but in the directory)"])
    }

    @Test func aBalanceSignedBesideTheAccountByAnEarlierVersionStillVerifiesAndIsListed() throws {
        let home = TemporaryHome()
        let store = try open(home)
        // As schema 5 to 7 kept it: the account row, and its balance signed beside it (no ledger entry).
        try store.write { (db) throws(TenderError) in
            try db.execute("INSERT INTO accounts (id, kind, currency, balance_minor, is_default, position) VALUES ('checking', 'checking', 'USD', 1000, 1, 1)")
            let payload = #"{"type":"balance","account":"checking","currency":"USD","balanceMinor":1000,"afterSequence":0}"#
            let jws = try CompactJWS.sign(payload: Array(payload.utf8), signer: try store.activeSigner(db))
            try db.statement("UPDATE accounts SET balance_anchor = ? WHERE id = 'checking'", [jws.text]).run()
        }
        try execute(home, "INSERT INTO contacts (id, display_name, position) VALUES ('tim-cook', 'Tim Cook', 1)")
        try pay(store, "a", cents: 250)
        let report = try store.verify()
        #expect(report.count == 1 && report.unchainedBalances == ["checking"])
        #expect(report.json["unchainedBalances"] == .array([.string("checking")]))
        try execute(home, "UPDATE accounts SET currency = 'EUR' WHERE id = 'checking'")
        expectTampered(store, naming: ["checking (stored currency EUR, signed USD)"])
        // Deleted: the signed payment still names it.
        try execute(home, "DELETE FROM accounts WHERE id = 'checking'")
        expectTampered(store, naming: ["checking (moved by record 1, missing from the directory)"])
    }

    // MARK: item 8

    @Test func aWholeStoreSignedByAnotherKeyIsRefusedOnEveryOpen() throws {
        let home = TemporaryHome()
        do {
            let store = try open(home)
            try importAccounts(store, checking: "100.00")
            try pay(store, "genuine")
        }
        let forger = TemporaryHome()
        do {
            let store = try open(forger)
            try importAccounts(store, checking: "9999.00")
            try pay(store, "forged")
        }
        for suffix in ["", "-wal", "-shm"] { unlink(home.path + "/" + SQLiteStore.fileName + suffix) }
        for suffix in ["", "-wal", "-shm"] where access(forger.path + "/" + SQLiteStore.fileName + suffix, F_OK) == 0 {
            #expect(rename(forger.path + "/" + SQLiteStore.fileName + suffix, home.path + "/" + SQLiteStore.fileName + suffix) == 0)
        }
        for opening in [{ () throws -> SQLiteStore in try self.readOnly(home) }, { () throws -> SQLiteStore in try self.open(home) }] {
            #expect {
                _ = try opening()
            } throws: { error in
                guard case let .home(message) = error as? TenderError else { return false }
                return message.contains("holds 2 record(s), but keys/ holds 1 key(s) it never recorded") && message.contains("the store was replaced")
            }
        }
    }

    @Test func aNewLedgerRetiresTheKeysOfTheOneItReplaces() throws {
        let home = TemporaryHome()
        let first: String
        do {
            let store = try open(home)
            try importAccounts(store, checking: "1.00")
            first = try store.activeKey().keyID
        }
        for suffix in ["", "-wal", "-shm"] { unlink(home.path + "/" + SQLiteStore.fileName + suffix) }
        try SQLiteStore.prepareHome(home.path, access: .readWrite(newLedger: true))
        do {
            let store = try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path), crypto: OpenSSLLedgerCrypto(), access: .readWrite(newLedger: true))
            try importAccounts(store, checking: "2.00")
        }
        #expect(access("\(home.path)/keys/\(first).pem", F_OK) != 0 && access("\(home.path)/keys/\(first).pem.retired", F_OK) == 0)
        #expect(try open(home).verify().count == 1)
    }

    /// noticed.md: with every `signing_keys` row removed by someone who can write the store, the next payment made a
    /// new key quietly and signed with it (verify then refused it). It is an error now, and nothing is written; a
    /// brand-new store still makes its first key.
    @Test func aStoreWhoseKeyRowsWereRemovedMakesNoNewKey() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "100.00")
        try pay(store, "first")
        let files = try FileManagerFree.names(home.path + "/keys")
        let records = try text(home, "SELECT count(*) FROM ledger")
        #expect(records == "2")  // the balances entry, the payment
        for change in ["DELETE FROM signing_keys", "UPDATE signing_keys SET active = 0"] {
            if change.hasPrefix("UPDATE") {
                try execute(home, "INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES ('gone', x'00', 0, 1)")
            }
            try execute(home, change)
            #expect {
                try pay(store, "second")
            } throws: { error in
                guard case let .keyFile(message) = error as? TenderError else { return false }
                return change.hasPrefix("UPDATE") || (message.contains("no signing key is recorded") && message.contains("nothing was written"))
            }
            #expect(try text(home, "SELECT count(*) FROM ledger") == records)
            #expect(try text(home, "SELECT count(*) FROM signing_keys WHERE active = 1") == "0")
            #expect(try FileManagerFree.names(home.path + "/keys") == files)
        }
        // A new store makes its first key at its first record.
        let fresh = TemporaryHome()
        try importAccounts(try open(fresh), checking: "1.00")
        try pay(try open(fresh), "first")
        #expect(try open(fresh).verify().count == 2)
    }

    @Test func aKeyFileWrittenBeforeACrashDoesNotLookLikeAReplacedStore() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "1.00")
        let kid = try store.activeKey().keyID
        #expect(access("\(home.path)/keys/\(kid).pem", F_OK) == 0)
        // A rotation that never committed left its new key under the unrecorded name: no store names it.
        _ = try KeyDirectory(home: home.path).createKey()
        #expect(try open(home).verify().count == 1)
        // A recorded key whose file kept that name (a crash after the commit) gets its own name back.
        #expect(rename("\(home.path)/keys/\(kid).pem", "\(home.path)/keys/\(kid).pem.new") == 0)
        try pay(try open(home), "a")
        #expect(access("\(home.path)/keys/\(kid).pem", F_OK) == 0)
    }

    // MARK: item 9

    @Test func anEngineInTestingModeMarksTheSignedLedgerBeforeItsFirstPayment() throws {
        let home = TemporaryHome()
        let store = try open(home)
        try importAccounts(store, checking: "100.00")
        store.noteTestingMode(service: "tender-test", configDirectory: "/tmp/pam.d")
        for key in ["a", "b"] {
            try store.audit(user: "ada", event: .notRequired, intent: "send_payment", detail: "testing mode (PAM service tender-test): policy unrestricted")
            try pay(store, key)
        }
        let entries = try store.ledgerEntries()
        let mark = try JSONParser.parse(String(decoding: try CompactJWS(parsing: entries[1].jws).payload, as: UTF8.self))
        #expect(mark["type"] == .string("testing_mode") && mark["service"] == .string("tender-test") && mark["configDirectory"] == .string("/tmp/pam.d"))
        let report = try store.verify()
        #expect(entries.count == 4 && report.testingMode == [2])
        // The audit rows removed with SQL: the signed mark stays; removing it breaks the chain.
        try execute(home, "DELETE FROM audit")
        #expect(try store.testingModeAuditCount() == 0 && store.verify().testingMode == [2])
        try execute(home, "DELETE FROM ledger WHERE sequence = 2")
        expectTampered(store, naming: ["record 2"])
    }

    // MARK: item 10

    @Test func aKeptCheckpointFollowsEveryCommitAndCatchesTheLastRecordsRemoved() throws {
        let home = TemporaryHome()
        let outside = TemporaryHome()
        let path = outside.path + "/tender.checkpoint"
        let store = try open(home)
        #expect(throws: TenderError.self) { try store.keepCheckpoint(at: home.path + "/cp", home: home.path) }
        #expect(throws: TenderError.self) { try store.keepCheckpoint(at: "relative/cp", home: home.path) }
        // A directory outside that is a link into the home is the home.
        #expect(symlink(home.path, outside.path + "/into-home") == 0)
        #expect(throws: TenderError.self) { try store.keepCheckpoint(at: outside.path + "/into-home/cp", home: home.path) }
        try store.keepCheckpoint(at: path, home: home.path)
        #expect(access(path, F_OK) != 0)  // nothing to keep for an empty ledger
        try importAccounts(store, checking: "100.00")
        for key in ["a", "b", "c"] { try pay(store, key) }
        let kept = try #require(try CheckpointFile.read(path))
        let payload = try JSONParser.parse(String(decoding: try CompactJWS(parsing: kept).payload, as: UTF8.self))
        #expect(payload["count"] == .number("4"))
        // It names the first record's signer, as `tender checkpoint` does, so records signed again by another key miss it.
        let firstSigner = try CompactJWS(parsing: try store.ledgerEntries().first!.jws).keyID
        #expect(payload["firstKid"] == .string(firstSigner))
        // The last two payments removed and the balance set back: only the kept checkpoint tells.
        try execute(home, "DELETE FROM ledger WHERE sequence > 2")
        try execute(home, "UPDATE accounts SET balance_minor = 9900 WHERE id = 'checking'")
        #expect(try store.verify(checkpoint: try store.checkpoint(), trustedKeys: nil).count == 2)
        expectTampered(store, naming: ["the ledger has 2 records but the checkpoint covers 4: it was truncated"])
        let reader = try readOnly(home)
        try reader.keepCheckpoint(at: path, home: home.path)
        expectTampered(reader, naming: ["truncated"])
        // A store open for writing refuses to replace the kept checkpoint with one of the shorter ledger.
        #expect {
            try store.keepCheckpoint(at: path, home: home.path)
        } throws: { error in
            guard case let .ledgerTampered(message) = error as? TenderError else { return false }
            return message.contains("covers 4 records, but the ledger holds 2: records were removed or rewritten")
        }
        #expect(try CheckpointFile.read(path) == kept)
    }

    @Test func concurrentCommitsLeaveTheKeptCheckpointAtTheLedgersEnd() throws {
        let home = TemporaryHome()
        let outside = TemporaryHome()
        let path = outside.path + "/tender.checkpoint"
        let store = try open(home)
        try importAccounts(store, checking: "100.00")
        try store.keepCheckpoint(at: path, home: home.path)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<10 { try? self.pay(store, "w\(worker)-\(index)") }
        }
        let kept = try #require(try CheckpointFile.read(path))
        let payload = try JSONParser.parse(String(decoding: try CompactJWS(parsing: kept).payload, as: UTF8.self))
        #expect(payload["count"] == .number("41"))
        #expect(try store.verify(checkpoint: kept, trustedKeys: nil).count == 41)
    }

    // MARK: item 18

    /// Each file of the home with its size, modification time and contents.
    private func snapshot(_ home: TemporaryHome) -> [String: String] {
        var files: [String: String] = [:]
        for name in [SQLiteStore.fileName, SQLiteStore.fileName + "-wal", SQLiteStore.fileName + "-shm"] {
            var info = stat()
            guard lstat(home.path + "/" + name, &info) == 0, let file = fopen(home.path + "/" + name, "rb") else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
            _ = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            files[name] = "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(bytes.hashValue)"
        }
        return files
    }

    @Test func aReadOnlyVerifyChangesNoFileAndSeesWhatTheWALHolds() throws {
        let home = TemporaryHome()
        let writer = try open(home)
        try importAccounts(writer, checking: "100.00")
        for key in ["a", "b"] { try pay(writer, key) }
        // The writer is open: its commits are in the -wal, which the -shm indexes.
        #expect(access(home.path + "/" + SQLiteStore.fileName + "-wal", F_OK) == 0)
        // (In one process SQLite shares the writer's -shm index with every connection, so only the
        // database and the -wal are compared here; Tests/python/test_verify_attacks.py runs `tender verify`
        // as another process and compares the -shm too.)
        let before = snapshot(home).filter { !$0.key.hasSuffix("-shm") }
        usleep(20_000)
        let report = try readOnly(home).verify()
        #expect(report.count == 3)
        #expect(snapshot(home).filter { !$0.key.hasSuffix("-shm") } == before)
    }
}

/// The names in a directory, sorted (Glibc only: the tests use no Foundation).
private enum FileManagerFree {
    static func names(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw TenderError.home("cannot list \(path)") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
