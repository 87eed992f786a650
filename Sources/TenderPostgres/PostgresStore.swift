// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderCrypto
import TenderStore

/// tenderd's PostgreSQL store: the same store as SQLite's (TenderStore's ``SQLiteStore``, the same SQL, records,
/// JWS and ports) on the deployment's database, through the daemon's shared ``PostgresPool``, one person's rows
/// each (``PostgresDatabase``).
/// The person's signing keys stay files of this machine (`home`/keys, 0700, the daemon's), one per machine; their
/// public halves are recorded in the database with the ledger, a machine's own pending until a machine whose key
/// signs enrolls it (``SQLiteStore/enrollKey(_:)``). libtender.so never links this module (nor libpq).
public enum PostgresStore {
    /// Opens the store of the person `uid` in the database of `pool`, creating the schema once when missing
    /// and `home` (the person's key directory's parent) as a home without a store file. Throws
    /// ``TenderError/storeBusy(_:)`` when the database cannot be reached, ``TenderError/store(_:)`` when it
    /// refuses (or the role would see every person's rows), ``TenderError/home(_:)`` as for a SQLite home.
    /// `filling`: the store is opened to be filled by ``PostgresMigration`` from the SQLite store in `home`, whose
    /// key files it does not record yet (no continuity check).
    public static func open(
        pool: PostgresPool, uid: UInt32, home: String, clock: any TenderClock = SystemClock(), filling: Bool = false
    ) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareKeyHome(home)
        let writer = PostgresDatabase(pool: pool, uid: uid)
        try PostgresSchema.migrate(writer)
        let reader = PostgresDatabase(pool: pool, uid: uid)
        let store = try SQLiteStore(
            home: home, writer: writer, reader: reader, keys: PostgresKeys(keys: try KeyDirectory(home: home, create: true)), crypto: OpenSSLLedgerCrypto(),
            access: .readWrite(newLedger: false), clock: clock, continuity: !filling,
            storeName: "the PostgreSQL store \(pool.location.redacted) (uid \(uid))")
        // A key per machine: one whose keys do not sign for this person yet registers its own, pending until enrolled.
        if !filling { try store.registerMachineKey() }
        store.storeSignaturesAtOnce()
        return store
    }
}
