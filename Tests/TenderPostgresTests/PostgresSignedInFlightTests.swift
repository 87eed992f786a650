// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import Testing
import TenderCore
import TenderCrypto
@testable import TenderPostgres
@testable import TenderStore

/// A quiet submitter's record on PostgreSQL is signed while its transaction's first round trip travels
/// (``StoreDatabase/sendAhead()``): the opening (BEGIN, the person's lock) and the reads made ahead leave first, then the
/// record is built, hashed and signed at the head the store expects, then the answers are read. Signed before the round
/// trip at 4feb634 (the server then idle while tenderd signed). What was signed in flight is a proposal only: a head that
/// moved meanwhile (another tenderd's payment, committed while this one waited for the lock) makes the batch build the
/// record again, one row and one chain; a payment refused by its checks never answers the record signed for it. The
/// signer sees the transaction's lock held (or waited for) at the server when it signs, or it records that it was not.
@Suite(.enabled(if: postgresTestURI != nil, "needs a PostgreSQL server: TENDER_TEST_POSTGRES_URI (make test-postgres sets it)"))
struct PostgresSignedInFlightTests {
    /// Watches the person's advisory lock from a connection of its own (pg_locks).
    final class LockWatch: @unchecked Sendable {
        let db: PostgresDatabase
        let uid: UInt32
        init(uid: UInt32) throws {
            db = PostgresDatabase(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 1), uid: uid)
            self.uid = uid
        }

        /// The rows of pg_locks for the person's lock: `granted` ones, or those waited for.
        func rows(granted: Bool) throws(TenderError) -> Int64 {
            try db.readTransaction { () throws(TenderError) -> Int64 in
                let row = try db.statement(
                    "SELECT count(*) FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND classid = ?::text::oid "
                        + "AND objid = ?::text::oid AND granted = ?::bool",
                    [Int64(PostgresSchema.lockNamespace), Int64(uid), granted ? "t" : "f"])
                _ = try row.step()
                return row.int64(0)
            }
        }

        /// Whether, within `seconds`, the person's lock is held by `held` backends and waited for by `waiting`.
        func reaches(held: Int64, waiting: Int64, seconds: Int = 5) -> Bool {
            for _ in 0..<(seconds * 200) {
                if (try? rows(granted: true)) == held, (try? rows(granted: false)) == waiting { return true }
                usleep(5_000)
            }
            return false
        }
    }

    /// Key files whose signers, once armed, look at the server before their next signature: whether the lock of the
    /// payment's transaction is held (`held`) and waited for (`waiting`) there as expected, that is, whether the round
    /// trip carrying the transaction's opening left before the record was signed. Batches sign as the key does, unwatched.
    final class WatchedKeys: KeyStore, @unchecked Sendable {
        let keys: KeyDirectory
        let watch: LockWatch
        /// (held, waiting) for the next signature, then nil.
        let armed = Mutex<(held: Int64, waiting: Int64)?>(nil)
        /// What each watched signature found, and the signatures made.
        let seen = Mutex<[Bool]>([])
        let signatures = Mutex<[[UInt8]]>([])

        init(home: String, watch: LockWatch) throws {
            try SQLiteStore.prepareKeyHome(home)
            keys = try KeyDirectory(home: home, create: true)
            self.watch = watch
        }

        func createKey() throws(TenderError) -> (keyID: String, publicKey: [UInt8]) { try keys.createKey() }
        func destroyKey(keyID: String) throws(TenderError) { try keys.destroyKey(keyID: keyID) }
        func signer(keyID: String) throws(TenderError) -> any RecordSigner { Signer(inner: try keys.signer(keyID: keyID), keys: self) }

        struct Signer: RecordSigner {
            let inner: any RecordSigner
            let keys: WatchedKeys
            var keyID: String { inner.keyID }
            func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8] {
                if let expected = keys.armed.withLock({ (armed) -> (held: Int64, waiting: Int64)? in defer { armed = nil }; return armed }) {
                    let reached = keys.watch.reaches(held: expected.held, waiting: expected.waiting)
                    keys.seen.withLock { $0.append(reached) }
                }
                let signature = try inner.sign(message)
                keys.signatures.withLock { $0.append(signature) }
                return signature
            }
            func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8] { try inner.seal(message) }
            func startBatch(capacity: Int) -> any SigningBatch { inner.startBatch(capacity: capacity) }
        }
    }

    /// A new person's store (its keys watched) with the directory imported and one payment, "a", made.
    private static func personWhoPaidA() throws -> (uid: UInt32, home: String, keys: WatchedKeys, store: SQLiteStore, a: PaymentRecord) {
        let uid = PostgresFixture.person()
        let home = PostgresFixture.home()
        let keys = try WatchedKeys(home: home, watch: try LockWatch(uid: uid))
        let store = try Self.store(uid: uid, home: home, keys: keys)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        let a = try #require(Self.paid(try store.submit(try PostgresFixture.payment("a"))), "a not paid")
        return (uid, home, keys, store, a)
    }

    /// The person `uid`'s store on `pool` (a tenderd of its own), its keys in `home`, watched by `keys`.
    private static func store(uid: UInt32, home: String, keys: WatchedKeys, pool: PostgresPool? = nil) throws -> SQLiteStore {
        let pool = try pool ?? PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        try SQLiteStore.prepareKeyHome(home)
        let writer = PostgresDatabase(pool: pool, uid: uid)
        try PostgresSchema.migrate(writer)
        let store = try SQLiteStore(
            home: home, writer: writer, reader: PostgresDatabase(pool: pool, uid: uid), keys: PostgresKeys(keys: keys),
            crypto: OpenSSLLedgerCrypto(), access: .readWrite(newLedger: false), clock: SystemClock())
        store.storeSignaturesAtOnce()
        return store
    }

    /// A new person's store on a pool of its own, its keys watched, the directory imported and one payment ("warm") made,
    /// so the head is known and the next quiet payment is signed ahead.
    private static func warmed() throws -> (store: SQLiteStore, keys: WatchedKeys, pool: PostgresPool) {
        let uid = PostgresFixture.person()
        let home = PostgresFixture.home()
        let keys = try WatchedKeys(home: home, watch: try LockWatch(uid: uid))
        let pool = PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2)
        let store = try Self.store(uid: uid, home: home, keys: keys, pool: pool)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(PostgresFixture.directory)))
        _ = try store.submit(try PostgresFixture.payment("warm"))
        return (store, keys, pool)
    }

    private static func paid(_ outcome: SubmissionOutcome) -> PaymentRecord? {
        if case let .paid(record) = outcome { return record }
        return nil
    }

    @Test func aQuietPaymentsRecordIsSignedWhileItsFirstRoundTripTravels() throws {
        let (store, keys, pool) = try Self.warmed()
        // Without the payment function (as while it is missing), the batch's transaction pays, its record signed in flight.
        pool.notePaymentFunction(false)
        // The payment's own transaction holds the lock (its opening is at the server), nobody waits: then it is signed.
        keys.armed.withLock { $0 = (1, 0) }
        let before = (trips: pool.roundTrips, signatures: keys.signatures.withLock { $0.count })
        guard let record = Self.paid(try store.submit(try PostgresFixture.payment("in-flight"))) else { Issue.record("not paid"); return }
        #expect(keys.seen.withLock { $0 } == [true])
        // Signed once, in flight, and inserted as signed: no signature after the batch, no record built again.
        #expect(keys.signatures.withLock { $0.count } == before.signatures + 1)
        #expect(try CompactJWS(parsing: record.jws).signature == keys.signatures.withLock { $0.last })
        #expect(store.preparePause.withLock { $0 } == 0)
        #expect(pool.roundTrips - before.trips == 2)
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "in-flight"])
        #expect(try store.verify().count == 3)
    }

    /// With the payment function: the record is signed once, before its call leaves (no lock held or waited for at the
    /// server yet), and inserted signed in one round trip.
    @Test func aQuietPaymentsRecordIsSignedOnceBeforeItsOneCall() throws {
        let (store, keys, pool) = try Self.warmed()
        keys.armed.withLock { $0 = (0, 0) }
        let before = (trips: pool.roundTrips, signatures: keys.signatures.withLock { $0.count })
        guard let record = Self.paid(try store.submit(try PostgresFixture.payment("one-call"))) else { Issue.record("not paid"); return }
        #expect(keys.seen.withLock { $0 } == [true])
        #expect(keys.signatures.withLock { $0.count } == before.signatures + 1)
        #expect(try CompactJWS(parsing: record.jws).signature == keys.signatures.withLock { $0.last })
        #expect(pool.roundTrips - before.trips == 1)
        #expect(try store.records().map(\.idempotencyKey) == ["warm", "one-call"])
        #expect(try store.verify().count == 3)
    }

    @Test func aRecordSignedInFlightForAHeadThatMovedIsBuiltAgainAndKeptOnce() throws {
        let (uid, home, keys, store, a) = try Self.personWhoPaidA()
        // Another tenderd (its own pool, the same key files) pays b in a transaction that holds the person's lock until this
        // store's payment waits for it at the server, then commits: the head moves while that round trip is in flight.
        let other = try PostgresStore.open(pool: PostgresPool(location: try PostgresLocation(postgresTestURI!), size: 2), uid: uid, home: home)
        let otherWatch = try LockWatch(uid: uid)
        let holding = Mutex(false)
        let otherOutcome = Mutex<Result<PaymentRecord, TenderError>?>(nil)
        let thread = Thread {
            let outcome = Result { () throws(TenderError) -> PaymentRecord in
                try other.write { (db) throws(TenderError) -> PaymentRecord in
                    let record = try other.appendPayment(try! PostgresFixture.payment("b"), db)
                    holding.withLock { $0 = true }
                    // Until this store's signer looked (it must see this lock held and its own waited for), then its payment waits.
                    for _ in 0..<4_000 where keys.seen.withLock({ $0.isEmpty }) { usleep(5_000) }
                    guard otherWatch.reaches(held: 1, waiting: 1, seconds: 20) else { throw .internal("the other payment never waited for the lock") }
                    return record
                }
            }
            otherOutcome.withLock { $0 = outcome }
        }
        while !holding.withLock({ $0 }) { usleep(1_000) }
        // Signed while its opening waits for the lock at the server (held by the other, waited for by this one), at the head a
        // left: b is committed before its reads are answered, so that record does not fit and the batch builds it again.
        // (The payment function's call leaves once the record is signed: the other's lock held then, nobody waiting yet.)
        keys.armed.withLock { $0 = (1, 0) }
        let signedBefore = keys.signatures.withLock { $0.count }
        let outcome = try store.submit(try PostgresFixture.payment("x"))
        thread.join()
        guard let b = try otherOutcome.withLock({ $0 })?.get() else { Issue.record("b not paid"); return }
        #expect(keys.seen.withLock { $0 } == [true])
        guard let x = Self.paid(outcome) else { Issue.record("x not paid: \(outcome)"); return }
        #expect(b.sequence == a.sequence + 1)
        #expect(x.sequence == b.sequence + 1)
        #expect(store.preparePause.withLock { $0 } == SQLiteStore.preparePauseSubmissions)
        // The record answered is the one built again after b, not the one signed in flight after a (for b's sequence).
        let signed = keys.signatures.withLock { $0 }
        #expect(signed.count == signedBefore + 1)
        #expect(try CompactJWS(parsing: x.jws).signature != signed.last)
        #expect(try store.records().map(\.idempotencyKey) == ["a", "b", "x"])
        #expect(try store.verify().count == 4)
        #expect(try other.verify().count == 4)
    }

    @Test func aRefusedPaymentsRecordSignedInFlightIsNeverAnswered() throws {
        let (_, _, keys, store, a) = try Self.personWhoPaidA()
        // Signed before its one call leaves: no lock held or waited for yet.
        keys.armed.withLock { $0 = (0, 0) }
        let signedBefore = keys.signatures.withLock { $0.count }
        // $1,000 from an account of $99: refused by its checks, after its record was signed in flight.
        let money = try Money(decimal: "1000.00", currency: try Currency(code: "USD"))
        let rich = PaymentSubmission(
            idempotencyKey: "rich", fingerprint: "rich", amount: money,
            movements: [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)]
        ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("note", .string("rich"))])) }
        #expect(try store.submit(rich) == .insufficientFunds)
        #expect(keys.seen.withLock { $0 } == [true])
        let refused = keys.signatures.withLock { $0 }
        #expect(refused.count == signedBefore + 1)
        // Nothing of it kept or waiting: the ledger did not grow, no signature is pending, the pause is not set (a refusal
        // is not a record that did not fit).
        #expect(try store.records().map(\.idempotencyKey) == ["a"])
        #expect(store.computedSignatures.withLock { $0.isEmpty })
        #expect(store.preparePause.withLock { $0 } == 0)
        // The next payment takes that sequence with a record of its own; no entry carries the refused signature.
        guard let b = Self.paid(try store.submit(try PostgresFixture.payment("b"))) else { Issue.record("b not paid"); return }
        #expect(b.sequence == a.sequence + 1)
        #expect(!b.json.contains("rich"))
        let stored = try store.ledgerEntries().map { try CompactJWS(parsing: $0.jws).signature }
        #expect(!stored.contains(refused.last!))
        #expect(try store.verify().count == 3)
    }

    /// A POSIX thread running `body` (not Swift concurrency's pool, which may run it after the test's own wait).
    final class Thread {
        private var thread = pthread_t()
        init(_ body: @escaping @Sendable () -> Void) {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            let started = pthread_create(&thread, nil, { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
            precondition(started == 0, "cannot start a thread")
        }
        func join() { pthread_join(thread, nil) }
        private final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
    }
}
