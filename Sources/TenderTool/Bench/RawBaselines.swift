// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL
internal import CSQLite
import TenderCore

/// The physical limits Tender is measured against, with OpenSSL and SQLite
/// called directly: no Tender code in these loops.
struct RawBaselines {
    let seconds: Double
    let directory: String

    /// A message the size of a payment record's signing input.
    static let message = [UInt8](repeating: 0x61, count: 700)

    /// Ed25519 signatures per second (EVP_DigestSignInit + EVP_DigestSign).
    func signRate() throws -> Double {
        let key = try RawKey()
        var signature = [UInt8](repeating: 0, count: 64)
        return try Stopwatch.rate(seconds: seconds) { try key.sign(Self.message, into: &signature) }
    }

    /// Ed25519 verifications per second (EVP_DigestVerifyInit + EVP_DigestVerify).
    func verifyRate() throws -> Double {
        let key = try RawKey()
        var signature = [UInt8](repeating: 0, count: 64)
        try key.sign(Self.message, into: &signature)
        return try Stopwatch.rate(seconds: seconds) {
            guard key.verify(Self.message, signature) else { throw TenderError.crypto("raw verify failed") }
        }
    }

    /// Single-row durable commits per second (WAL, synchronous=FULL, autocommit INSERT).
    func commitRate() throws -> Double {
        let db = try RawDatabase(path: directory + "/raw-commit.sqlite3")
        return try Stopwatch.rate(seconds: seconds) { try db.insert(Self.message) }
    }

    /// Sign a record, then commit it alone, one at a time: the limit of one durable signed payment at a time.
    func signThenCommitRate() throws -> Double {
        let key = try RawKey()
        let db = try RawDatabase(path: directory + "/raw-sign-commit.sqlite3")
        var signature = [UInt8](repeating: 0, count: 64)
        return try Stopwatch.rate(seconds: seconds) {
            try key.sign(Self.message, into: &signature)
            try db.insert(Self.message + signature)
        }
    }

    /// Sign a record, then commit what a payment must write in one transaction:
    /// the record with its unique idempotency key, and the debited balance.
    /// One payment a call, on a store made once; the same record as
    /// ``signThenCommitRate()``, so the two differ only by the key's index and the balance.
    func signThenCommitPaymentLoop() throws -> () throws -> Void {
        let key = try RawKey()
        let db = try RawPaymentDatabase(path: directory + "/raw-payment-slices.sqlite3")
        var signature = [UInt8](repeating: 0, count: 64)
        return {
            try key.sign(Self.message, into: &signature)
            try db.pay([Self.message + signature])
        }
    }

    /// The write-ahead log frames a payment's raw rows write (``signThenCommitPaymentLoop()``), a mean over
    /// `count` payments on that loop's file as it stands after its runs: the yardstick of Tender's
    /// `frames_per_sequential_payment`. Deterministic; not timed.
    func paymentRowsFrames(count: Int) throws -> Double {
        let key = try RawKey()
        let db = try RawPaymentDatabase(path: directory + "/raw-payment-slices.sqlite3", fresh: false)
        var signature = [UInt8](repeating: 0, count: 64)
        let frames = try db.logFrames {
            for _ in 0..<count {
                try key.sign(Self.message, into: &signature)
                try db.pay([Self.message + signature])
            }
        }
        return Double(frames) / Double(count)
    }

    /// `size` payments' rows in one durable transaction (group commit),
    /// without signing: the flush and the rows alone. One commit a call, on a store made once.
    func paymentBatchCommitLoop(size: Int) throws -> () throws -> Void {
        let db = try RawPaymentDatabase(path: directory + "/raw-payment-batch-slices.sqlite3")
        let records = Array(repeating: Self.message + [UInt8](repeating: 0x62, count: 64), count: size)
        return { try db.pay(records) }
    }
}

extension RawBaselines {
    /// Why `path` could not be opened, naming it and SQLite's reason (the handle, if any, is closed).
    static func openFailure(_ path: String, _ handle: OpaquePointer?) -> TenderError {
        let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        sqlite3_close(handle)
        return TenderError.store("raw open \(path): \(reason)")
    }
}

/// An Ed25519 key used raw through EVP; one thread at a time.
final class RawKey {
    let pkey: OpaquePointer
    let ctx: OpaquePointer

    init() throws {
        guard let kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw TenderError.crypto("keygen") }
        defer { EVP_PKEY_CTX_free(kctx) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(kctx) == 1, EVP_PKEY_keygen(kctx, &key) == 1, let key, let ctx = EVP_MD_CTX_new() else {
            throw TenderError.crypto("keygen")
        }
        pkey = key
        self.ctx = ctx
    }

    deinit {
        EVP_MD_CTX_free(ctx)
        EVP_PKEY_free(pkey)
    }

    func sign(_ message: [UInt8], into signature: inout [UInt8]) throws {
        var length = signature.count
        guard EVP_DigestSignInit(ctx, nil, nil, nil, pkey) == 1,
            EVP_DigestSign(ctx, &signature, &length, message, message.count) == 1
        else { throw TenderError.crypto("sign") }
    }

    func verify(_ message: [UInt8], _ signature: [UInt8]) -> Bool {
        EVP_DigestVerifyInit(ctx, nil, nil, nil, pkey) == 1
            && EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
    }
}

/// A SQLite file in WAL mode with synchronous=FULL and one table of blobs.
private final class RawDatabase {
    let db: OpaquePointer
    let insertStatement: OpaquePointer

    init(path: String) throws {
        unlink(path)
        unlink(path + "-wal")
        unlink(path + "-shm")
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw RawBaselines.openFailure(path, handle) }
        db = handle
        for sql in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)"] {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw TenderError.store("raw setup") }
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO t (data) VALUES (?)", -1, &statement, nil) == SQLITE_OK, let statement else {
            throw TenderError.store("raw prepare")
        }
        insertStatement = statement
    }

    deinit {
        sqlite3_finalize(insertStatement)
        sqlite3_close(db)
    }

    func insert(_ data: [UInt8]) throws {
        sqlite3_reset(insertStatement)
        let done = data.withUnsafeBytes { bytes in
            sqlite3_bind_blob(insertStatement, 1, bytes.baseAddress, Int32(bytes.count), nil) == SQLITE_OK
                && sqlite3_step(insertStatement) == SQLITE_DONE
        }
        guard done else { throw TenderError.store("raw insert") }
    }
}

/// A SQLite file shaped like a payment's writes: a ledger of records with a
/// unique idempotency key, and an account whose balance each payment debits.
/// Keys come in order (a counter, then random bits), as Tender's sessions make
/// them: the kindest case for the key's index.
/// Thread-safe: a payment holds the connection's own lock.
final class RawPaymentDatabase: @unchecked Sendable {
    let db: OpaquePointer
    let statements: [OpaquePointer]
    private var generator = SystemRandomNumberGenerator()
    private var counter: UInt64
    private let lock = PthreadLocked(0)

    /// Opens the file at `path`; `fresh`: removes it first, else opens it as it is, creating what is missing.
    init(path: String, fresh: Bool = true) throws {
        if fresh {
            unlink(path)
            unlink(path + "-wal")
            unlink(path + "-shm")
        }
        counter = generator.next() >> 1
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw RawBaselines.openFailure(path, handle) }
        db = handle
        // Another connection may hold the file for a moment (one let go while a payment still used it), as Tender's may.
        sqlite3_busy_timeout(db, 10_000)
        // The -wal and -shm kept at the last close (emptied, see deinit), as Tender's stores keep theirs: neither side
        // creates and removes them at each open and close of the many-homes loops.
        var persist: Int32 = 1
        _ = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        let setup = [
            "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
            "CREATE TABLE IF NOT EXISTS ledger (sequence INTEGER PRIMARY KEY, record BLOB NOT NULL, idempotency_key TEXT NOT NULL UNIQUE)",
            "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, balance INTEGER NOT NULL)",
            "INSERT OR IGNORE INTO accounts VALUES ('checking', 9000000000000000)",
        ]
        for sql in setup {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                sqlite3_close(db)
                throw TenderError.store("raw setup \(path)")
            }
        }
        var prepared: [OpaquePointer] = []
        for sql in ["BEGIN IMMEDIATE", "UPDATE accounts SET balance = balance - 1 WHERE id = 'checking'",
            "INSERT INTO ledger (record, idempotency_key) VALUES (?, ?)", "COMMIT"]
        {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                for done in prepared { sqlite3_finalize(done) }
                sqlite3_close(db)
                throw TenderError.store("raw prepare")
            }
            prepared.append(statement)
        }
        statements = prepared
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_exec(db, "PRAGMA journal_size_limit=0", nil, nil, nil)
        sqlite3_close(db)
    }

    /// The log frames the commits of `body` write on this file: the log is emptied first, then counted
    /// (`PRAGMA wal_checkpoint`); `body` must write fewer than 1,000 frames.
    func logFrames(_ body: () throws -> Void) throws -> Int64 {
        guard try checkpoint("PRAGMA wal_checkpoint(TRUNCATE)") == 0 else { throw TenderError.store("raw log not emptied") }
        try body()
        return try checkpoint("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// The frames in the log after the checkpoint `sql` ran (an error when it was blocked).
    private func checkpoint(_ sql: String) throws -> Int64 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw TenderError.store("raw prepare") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, sqlite3_column_int64(statement, 0) == 0 else { throw TenderError.store("raw checkpoint") }
        return sqlite3_column_int64(statement, 1)
    }

    /// Commits `records` in one transaction, each with a new random key and its debit.
    func pay(_ records: [[UInt8]]) throws {
        try lock.withLock { _ throws in try payLocked(records) }
    }

    private func payLocked(_ records: [[UInt8]]) throws {
        try step(statements[0])
        for record in records {
            try step(statements[1])
            counter += 1
            let key = Self.hex(counter) + Self.hex(generator.next())
            let insert = statements[2]
            sqlite3_reset(insert)
            let bound = record.withUnsafeBytes { bytes in
                sqlite3_bind_blob(insert, 1, bytes.baseAddress, Int32(bytes.count), nil) == SQLITE_OK
                    && sqlite3_bind_text(insert, 2, key, -1, RawPaymentDatabase.transient) == SQLITE_OK
            }
            guard bound else { throw TenderError.store("raw bind") }
            try step(insert)
        }
        try step(statements[3])
    }

    private func step(_ statement: OpaquePointer) throws {
        sqlite3_reset(statement)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw TenderError.store("raw payment step") }
    }

    /// 16 hex digits, zero-padded so that the text sorts as the number does.
    private static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
