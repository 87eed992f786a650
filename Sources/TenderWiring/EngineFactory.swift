// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore

/// The one place an engine is assembled, for the library, the CLI and the
/// bench: the acting user, the PAM authenticator, the vocabulary, the store
/// with its key files and OpenSSL, the gate, the clock.
public enum EngineFactory {
    /// Opens the store of `home` as `access` says, after checking (and, for
    /// writing, creating) the home: SQLite, key files, OpenSSL, `clock`.
    public static func openStore(home: String, access: StoreAccess, clock: any TenderClock = SystemClock()) throws(TenderError) -> SQLiteStore {
        try SQLiteStore.prepareHome(home, access: access)
        return try SQLiteStore(
            home: home, keys: try KeyDirectory(home: home, create: access != .readOnly), crypto: OpenSSLLedgerCrypto(), access: access,
            clock: clock)
    }

    /// The engine `configuration` describes. Refuses a process whose real and
    /// effective uids differ, and a policy whose PAM service has no file,
    /// before anything is created. Opens the configured home unless `store`
    /// is given (the CLI's, already open on it). With `host`, the directory
    /// and the payments are the host's; the ledger stays the store's.
    /// `customIntents`, when given, replaces the configuration's `"intents"` files (the CLI's, read once for parsing too).
    public static func assemble(
        _ configuration: EngineConfiguration, store given: SQLiteStore? = nil, host: HostPorts? = nil,
        customIntents givenIntents: CustomIntentCatalog? = nil, clock: any TenderClock = SystemClock()
    ) throws(TenderError) -> AssembledEngine {
        if given == nil, let path = configuration.broker ?? brokerFromEnvironment() {
            guard host == nil else { throw .invalidArgument("an engine with a host's own directory and payments cannot be brokered") }
            guard configuration.checkpointPath == nil else {
                throw .invalidArgument("checkpointPath: a brokered engine's store is tenderd's; keep its checkpoints with `tender checkpoint --broker`")
            }
            guard configuration.intentFiles.isEmpty, givenIntents == nil else {
                throw .invalidArgument("custom intents run in process: a brokered engine (tenderd) runs the built-in intents only")
            }
            return try brokered(configuration, path: path, clock: clock)
        }
        // One uid for PAM, the audit and the ownership checks; the authenticator and the vocabulary
        // before the store: a refusal leaves nothing behind.
        // One passwd lookup for the audit's label and the authenticator's user (an engine is opened per home served).
        let (user, userName) = try PAMAuthenticator.actingUserAndName()
        var policy = configuration.authentication
        // A preloaded pam_wrapper picks the PAM stack from its environment: testing mode, as "testing": true.
        if PAMAuthenticator.pamWrapperPresent { policy.testing = true }
        let customIntents: CustomIntentCatalog
        if let givenIntents { customIntents = givenIntents } else { customIntents = try Self.customIntents(configuration.intentFiles) }
        // A restricted custom intent asks through PAM even when the policy restricts nothing else: its
        // service must have a file when one is loaded now; one added later uses it when it has one.
        let asks = policy.asksAnything || customIntents.definitions.contains(where: { $0.restriction != .never || policy.alwaysRestricts($0) })
        let authenticator = asks
            ? try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory, user: userName)
            : try? PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory, user: userName)
        let vocabulary = try configuration.vocabularyFile.map { (path) throws(TenderError) in try readVocabulary(path) }
            ?? configuration.vocabulary
        let store: SQLiteStore
        if let given {
            store = given
        } else {
            let access: StoreAccess = configuration.readOnly ? .readOnly : .readWrite(newLedger: configuration.newLedger)
            store = try openStore(home: configuration.home, access: access, clock: clock)
        }
        if let path = configuration.checkpointPath { try store.keepCheckpoint(at: path, home: configuration.home) }
        // The first payment an engine in testing mode lets through is preceded by a signed ledger entry saying so.
        if policy.testing { store.noteTestingMode(service: policy.service, configDirectory: policy.configDirectory) }
        let gate = AuthenticationGate(policy: policy, authenticator: authenticator, records: store, user: user, clock: clock)
        let hostDirectory = host.map { $0.directory(store) }
        let engine = Engine(
            directory: hostDirectory ?? store, ledger: store, limits: configuration.limits, gate: gate, dialog: configuration.dialog,
            appVocabulary: vocabulary, backend: host?.backend, customIntents: customIntents, today: { clock.today() })
        return AssembledEngine(engine: engine, directoryAdmin: hostDirectory ?? store, ledgerAdmin: store, clock: clock)
    }

    /// The custom intents of the definition files at `paths`, read in order; an error names its file.
    public static func customIntents(_ paths: [String]) throws(TenderError) -> CustomIntentCatalog {
        let catalog = CustomIntentCatalog()
        for path in paths {
            do throws(TenderError) { try catalog.add(try readJSON(path, what: "definition file")) } catch {
                throw error.withMessage("\(path): \(error.message)")
            }
        }
        return catalog
    }

    /// The app-wide vocabulary file at `path`.
    static func readVocabulary(_ path: String) throws(TenderError) -> AppVocabulary {
        try AppVocabulary(json: try readJSON(path, what: "vocabulary file"))
    }

    /// The JSON of the file at `path` (the app-wide vocabulary, a custom intent definition), `what` naming it in errors.
    public static func readJSON(_ path: String, what: String) throws(TenderError) -> JSONValue {
        guard let file = fopen(path, "re") else { throw .notFound("the \(what) cannot be opened: errno \(errno)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            guard bytes.count <= JSONInput.maxBytes else { throw .tooLarge("the \(what) exceeds \(JSONInput.maxBytes) bytes") }
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw .notFound("the \(what) cannot be read") }
        return try JSONInput.parse(bytes)
    }
}
