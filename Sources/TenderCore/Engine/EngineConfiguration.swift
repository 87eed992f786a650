// SPDX-License-Identifier: Apache-2.0
/// An engine's configuration, from its JSON form (docs/json.md).
public struct EngineConfiguration: Equatable, Sendable {
    /// The broker's socket (`"broker": PATH`): the daemon holds the store, the keys and PAM (docs/broker.md).
    public var broker: String?
    /// The `"authentication"` member as given, which a brokered engine sends the daemon to tighten root's policy.
    public var authenticationDocument: JSONValue?
    /// The directory holding the store.
    public let home: String
    public let limits: PaymentLimits
    public let authentication: AuthenticationPolicy
    public let dialog: DialogOptions
    /// The app-wide vocabulary given inline.
    public let vocabulary: AppVocabulary
    /// A file holding the app-wide vocabulary, read by the adapter (replaces ``vocabulary``).
    public let vocabularyFile: String?
    /// Whether a new ledger may be started in a home that held one whose store is missing (`"newLedger": true`).
    public let newLedger: Bool
    /// Whether the store is opened read-only (`"readOnly": true`).
    public let readOnly: Bool
    /// Custom intent definition documents to load, in order (`"intents"`: paths; docs/custom-intents.md).
    public var intentFiles: [String] = []
    /// Where the store keeps a signed checkpoint after every commit that grows the ledger, outside the
    /// home (`"checkpointPath"`); verify then checks against it when given no checkpoint (docs/ledger.md).
    public var checkpointPath: String?

    public init(
        home: String, limits: PaymentLimits = .standard, authentication: AuthenticationPolicy = AuthenticationPolicy(),
        dialog: DialogOptions = DialogOptions(), vocabulary: AppVocabulary = .empty, vocabularyFile: String? = nil,
        newLedger: Bool = false, readOnly: Bool = false
    ) {
        self.newLedger = newLedger
        self.readOnly = readOnly
        self.home = home
        self.limits = limits
        self.authentication = authentication
        self.dialog = dialog
        self.vocabulary = vocabulary
        self.vocabularyFile = vocabularyFile
    }

    /// Parses `{"home", "limits", "authentication", "dialog", "vocabulary" | "vocabularyFile", "testing", "newLedger", "readOnly", "intents", "locale",
    /// "checkpointPath"}`.
    /// `"testing": true` allows a PAM service other than `tender` or a PAM directory of the caller's
    /// (and the audit says so); `"newLedger": true` allows starting a new ledger in a home that held one;
    /// `"readOnly": true` opens the store read-only (verify, read the directory; nothing is created or changed).
    /// `"broker": PATH` makes a brokered engine, whose `"home"` may be left out.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: "configuration",
            allowed: [
                "home", "limits", "authentication", "dialog", "vocabulary", "vocabularyFile", "testing", "newLedger", "readOnly", "broker",
                "intents", "locale", "checkpointPath",
            ])
        let testing = try reader.bool("testing") ?? false
        let broker = try reader.string("broker", maxLength: 107)
        guard broker.map({ !$0.isEmpty && !$0.contains("\0") }) ?? true else { throw .invalidArgument("configuration.broker must be a socket path") }
        // A brokered engine's store is the daemon's: its home may be left out.
        let home = broker != nil && reader["home"] == nil ? "" : try reader.requiredString("home", maxLength: 4096)
        guard !home.contains("\0") else { throw .invalidArgument("configuration.home contains a NUL character") }
        var dialog = try reader["dialog"].map { (v) throws(TenderError) in try DialogOptions(json: v) } ?? DialogOptions()
        if let locale = try reader.string("locale", maxLength: 35) {
            guard let language = SpeechLanguage(locale: locale) else {
                throw .invalidArgument("configuration.locale \"\(locale)\" is not a language Tender speaks; use en or es (e.g. \"es-ES\")")
            }
            dialog.language = language
        }
        let file = try reader.string("vocabularyFile", maxLength: 4096)
        guard file == nil || reader["vocabulary"] == nil else {
            throw .invalidArgument("configuration has both vocabulary and vocabularyFile; give one")
        }
        guard !(file?.contains("\0") ?? false) else { throw .invalidArgument("configuration.vocabularyFile contains a NUL character") }
        self.init(
            home: home, limits: try reader["limits"].map { (v) throws(TenderError) in try PaymentLimits(json: v) } ?? .standard,
            authentication: try reader["authentication"].map { (v) throws(TenderError) in try AuthenticationPolicy(json: v, testing: testing) }
                ?? Self.defaultPolicy(testing: testing),
            dialog: dialog,
            vocabulary: try reader["vocabulary"].map { (v) throws(TenderError) in try AppVocabulary(json: v) } ?? .empty,
            vocabularyFile: file, newLedger: try reader.bool("newLedger") ?? false,
            readOnly: try reader.bool("readOnly") ?? false)
        self.broker = broker
        self.authenticationDocument = reader["authentication"]
        guard !(self.readOnly && self.newLedger) else { throw .invalidArgument("configuration has both readOnly and newLedger") }
        checkpointPath = try reader.string("checkpointPath", maxLength: 4096)
        guard checkpointPath.map({ $0.hasPrefix("/") && !$0.contains("\0") }) ?? true else {
            throw .invalidArgument("configuration.checkpointPath must be an absolute path")
        }
        intentFiles = try reader.strings("intents", maxCount: 100, maxLength: 4096)
        guard !intentFiles.contains(where: { $0.isEmpty || $0.contains("\0") }) else {
            throw .invalidArgument("configuration.intents must list paths of definition files")
        }
    }

    private static func defaultPolicy(testing: Bool) -> AuthenticationPolicy {
        var policy = AuthenticationPolicy()
        policy.testing = testing
        return policy
    }
}
