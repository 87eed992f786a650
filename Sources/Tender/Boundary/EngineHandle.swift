internal import Glibc
import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore

/// What a `tender_engine *` points to: the engine and its store.
/// Retained once per C reference and once per open session.
final class EngineHandle: CHandle {
    let engine: Engine
    let store: SQLiteStore
    /// The directory the C API's directory calls administer: the host's for an engine with a host, else the store's.
    let directoryAdmin: any DirectoryAdmin

    /// Opens the store in the configured home; with `host`, the directory and
    /// the payments are the host's (its callbacks), the ledger stays Tender's.
    init(configuration: EngineConfiguration, host: HostCallbacks? = nil) throws(TenderError) {
        // The authenticator and the vocabulary first: a refusal leaves nothing behind.
        // One uid for PAM, the audit and the ownership checks: refused when the real and effective uids differ.
        let user = try PAMAuthenticator.actingUser()
        let policy = configuration.authentication
        let authenticator = policy.asksAnything
            ? try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory) : nil
        let vocabulary = try configuration.vocabularyFile.map { (path) throws(TenderError) in try Self.readVocabulary(path) }
            ?? configuration.vocabulary
        let access: StoreAccess = configuration.readOnly ? .readOnly : .readWrite(newLedger: configuration.newLedger)
        try SQLiteStore.prepareHome(configuration.home, access: access)
        let store = try SQLiteStore(
            home: configuration.home, keys: try KeyDirectory(home: configuration.home, create: !configuration.readOnly), crypto: OpenSSLLedgerCrypto(),
            access: access)
        self.store = store
        let gate = AuthenticationGate(
            policy: policy, authenticator: authenticator, records: store, user: user)
        let hostDirectory = host.map { HostDirectory(callbacks: $0, store: store) }
        let directory: any Directory = hostDirectory ?? store
        directoryAdmin = hostDirectory ?? store
        engine = Engine(
            directory: directory, ledger: store, limits: configuration.limits, gate: gate, dialog: configuration.dialog,
            appVocabulary: vocabulary, backend: host.map { HostBackend(callbacks: $0) }, today: { WallClock.today() })
    }

    /// What parsing text may look at: the engine's directory, the store's shortcuts, the app vocabulary, today.
    func parseContext() throws(TenderError) -> ParseContext {
        ParseContext(directory: engine.directory, shortcuts: try store.shortcuts(), vocabulary: engine.appVocabulary, today: engine.today())
    }

    /// The app-wide vocabulary file at `path`.
    private static func readVocabulary(_ path: String) throws(TenderError) -> AppVocabulary {
        guard let file = fopen(path, "re") else { throw .notFound("the vocabulary file cannot be opened: errno \(errno)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            guard bytes.count <= JSONInput.maxBytes else { throw .tooLarge("the vocabulary file exceeds \(JSONInput.maxBytes) bytes") }
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw .notFound("the vocabulary file cannot be read") }
        return try AppVocabulary(json: try JSONInput.parse(bytes))
    }

    static let argumentName = "engine"
}
