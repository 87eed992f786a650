import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore

/// What a `tender_engine *` points to: the engine and its store.
/// Retained once per C reference and once per open session.
final class EngineHandle: CHandle {
    let engine: Engine
    let store: SQLiteStore

    init(configuration: EngineConfiguration) throws(TenderError) {
        // The authenticator first: a refused PAM service leaves nothing behind.
        let policy = configuration.authentication
        let authenticator = policy.asksAnything
            ? try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory) : nil
        try SQLiteStore.prepareHome(configuration.home)
        store = try SQLiteStore(home: configuration.home, keys: try KeyDirectory(home: configuration.home), crypto: OpenSSLLedgerCrypto())
        let gate = AuthenticationGate(policy: policy, authenticator: authenticator, records: store)
        engine = Engine(directory: store, ledger: store, limits: configuration.limits, gate: gate)
    }

    static let argumentName = "engine"
}
