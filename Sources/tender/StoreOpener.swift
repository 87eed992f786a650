import ArgumentParser
import TenderCore
import TenderCrypto
import TenderStore

/// Opens the store of a home the way the library does: SQLite, key files, OpenSSL.
enum StoreOpener {
    static func open(home: String) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareHome(home)
        return try SQLiteStore(home: home, keys: try KeyDirectory(home: home), crypto: OpenSSLLedgerCrypto())
    }

    /// The home from `--home`/`TENDER_HOME`, or a usage error.
    static func requiredHome(_ option: HomeOption) throws -> String {
        guard let home = option.resolved else { throw ValidationError("set --home DIR or TENDER_HOME") }
        return home
    }
}
