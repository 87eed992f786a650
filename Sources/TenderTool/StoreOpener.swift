#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore

/// Opens the store of a home the way the library does: SQLite, key files, OpenSSL.
enum StoreOpener {
    /// Opens (creating when missing) the store of `home`; `newLedger` allows a new ledger where one was.
    static func open(home: String, newLedger: Bool = false) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareHome(home, access: .readWrite(newLedger: newLedger))
        return try SQLiteStore(home: home, keys: try KeyDirectory(home: home), crypto: OpenSSLLedgerCrypto(), access: .readWrite(newLedger: newLedger))
    }

    /// Opens the store of `home` read-only: creates and changes nothing, works on a read-only home,
    /// and a home or store that does not exist is an error.
    static func openReadOnly(home: String) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareHome(home, access: .readOnly)
        return try SQLiteStore(home: home, keys: try KeyDirectory(home: home, create: false), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
    }

    /// An engine on `store` with the default policy (every payment re-authenticates). The PAM stack is
    /// the system's service `tender`, except in a demo home (one `tender demo` made, holding
    /// pam.d/tender-demo): there it is the demo's own stack, in testing mode, said on standard error
    /// and in the audit. The shipped tool takes no PAM service or directory from its caller.
    static func engine(store: SQLiteStore, home: String, today: @escaping @Sendable () -> LocalDate = { WallClock.today() })
        throws(TenderError) -> Engine
    {
        var policy = AuthenticationPolicy()
        if let demo = DemoPAMStack.existing(home: home) {
            policy.service = DemoPAMStack.service
            policy.configDirectory = demo
            policy.testing = true
            _ = "tender: testing mode: the demo PAM stack of this demo home (\(demo)), not your system login\n".withCString { write(2, $0, strlen($0)) }
        }
        return try engine(store: store, policy: policy, today: today)
    }

    /// An engine on `store` with `policy`, authenticating through its PAM service and directory.
    static func engine(store: SQLiteStore, policy: AuthenticationPolicy, today: @escaping @Sendable () -> LocalDate = { WallClock.today() })
        throws(TenderError) -> Engine
    {
        let authenticator = try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory)
        return Engine(
            directory: store, ledger: store, gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: store), today: today)
    }

    /// The home from `--home`/`TENDER_HOME`, or a usage error.
    static func requiredHome(_ option: HomeOption) throws -> String {
        guard let home = option.resolved else { throw ValidationError("set --home DIR or TENDER_HOME") }
        return home
    }
}
