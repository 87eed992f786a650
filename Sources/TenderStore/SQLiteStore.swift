import Synchronization
import TenderCore

/// The embedded default store: one SQLite file, `tender.sqlite3` in the home
/// directory, holding the directory, the signed ledger, the payments and the
/// public signing keys. Implements the ``Directory`` and ``PaymentLedger`` ports.
///
/// Thread-safe: a reading connection and a writing connection, each behind
/// a mutex; concurrent submissions share transactions (group commit).
/// Several processes may open the same home; writes take SQLite's write lock
/// up front and wait for it up to ``Database/busyTimeoutMilliseconds``.
public final class SQLiteStore: Directory, PaymentLedger {
    /// The store's file name inside the home.
    public static let fileName = "tender.sqlite3"

    let reader: Mutex<Database>
    let writer: Mutex<Database>
    let keys: any KeyStore
    let crypto: any LedgerCrypto
    let submissions = GroupCommitQueue<PaymentSubmission, Result<SubmissionOutcome, TenderError>>()

    /// Opens the store in `home`, creating the directory (0700) and the store
    /// when missing. Records are signed with keys from `keys`; hashes and
    /// verification use `crypto`. Throws ``TenderError/home(_:)`` when the
    /// home cannot be used, ``TenderError/store(_:)`` otherwise.
    public init(home: String, keys: any KeyStore, crypto: any LedgerCrypto) throws(TenderError) {
        try HomeDirectory.prepare(home)
        let path = home + "/" + SQLiteStore.fileName
        try HomeDirectory.createPrivateFile(path)
        let writing = try Database(path: path)
        try Schema.migrate(writing)
        writer = Mutex(writing)
        reader = Mutex(try Database(path: path))
        self.keys = keys
        self.crypto = crypto
    }

    /// Creates `home` and its missing parents with mode 0700; refuses a path that is not a writable directory.
    public static func prepareHome(_ home: String) throws(TenderError) { try HomeDirectory.prepare(home) }

    func read<T: Sendable>(_ body: (Database) throws(TenderError) -> T) throws(TenderError) -> T {
        try reader.withLock { (db: inout Database) throws(TenderError) -> T in
            try db.readTransaction { () throws(TenderError) -> T in try body(db) }
        }
    }

    func write<T: Sendable>(_ body: (Database) throws(TenderError) -> T) throws(TenderError) -> T {
        try writer.withLock { (db: inout Database) throws(TenderError) -> T in
            try db.writeTransaction { () throws(TenderError) -> T in try body(db) }
        }
    }
}
