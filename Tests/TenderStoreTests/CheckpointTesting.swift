// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import TenderCore
import TenderCrypto
@testable import TenderStore

/// What the checkpoint suites share: a store on a home with the test directory, a cent paid on it, waiting for a
/// worker, and the home's files looked at.
protocol CheckpointTesting {}

extension CheckpointTesting {
    /// A store on `home`, the test directory imported unless `importing` is false.
    func store(_ home: TemporaryHome, importing: Bool = true) throws -> SQLiteStore {
        let store = try SQLiteStoreTests.openStore(home.path)
        if importing { try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory))) }
        return store
    }

    /// Pays a cent from checking to Tim Cook under `key`, signed as a quiet payment is; throws unless it is paid.
    func pay(_ store: SQLiteStore, _ key: String) throws(TenderError) {
        let cent = try! Money(decimal: "0.01", currency: try Currency(code: "USD"))
        let submission = PaymentSubmission.signed(
            idempotencyKey: key, fingerprint: "fp-" + key, amount: cent,
            movements: [BalanceMovement(accountID: "checking", currency: cent.currency, delta: -1)],
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment"))) }
        guard case .paid = try store.submit(submission) else { throw .internal("not paid") }
    }

    /// Waits up to `seconds` for `condition`; whether it came.
    func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Double(time(nil)) + seconds
        while !condition() {
            if Double(time(nil)) > deadline { return false }
            usleep(2000)
        }
        return true
    }

    /// Whether `path` exists (not followed).
    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The size of `path`, nil when it does not exist (a missing file never passes for an empty one).
    func size(_ path: String) -> Int? {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
