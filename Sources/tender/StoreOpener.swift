import ArgumentParser
import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore

/// Opens the store of a home the way the library does: SQLite, key files, OpenSSL.
enum StoreOpener {
    static func open(home: String) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareHome(home)
        return try SQLiteStore(home: home, keys: try KeyDirectory(home: home), crypto: OpenSSLLedgerCrypto())
    }

    /// An engine on `store` with the default policy (every payment re-authenticates) through PAM `service`,
    /// read from `configDirectory` when given, else from the system's.
    static func engine(store: SQLiteStore, service: String, configDirectory: String?, today: @escaping @Sendable () -> LocalDate = { WallClock.today() })
        throws(TenderError) -> Engine
    {
        var policy = AuthenticationPolicy()
        policy.service = service
        policy.configDirectory = configDirectory
        let authenticator = try PAMAuthenticator(service: service, configDirectory: configDirectory)
        return Engine(
            directory: store, ledger: store, gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: store), today: today)
    }

    /// The home from `--home`/`TENDER_HOME`, or a usage error.
    static func requiredHome(_ option: HomeOption) throws -> String {
        guard let home = option.resolved else { throw ValidationError("set --home DIR or TENDER_HOME") }
        return home
    }
}
