/// An engine's configuration, from its JSON form (docs/json.md).
public struct EngineConfiguration: Equatable, Sendable {
    /// The directory holding the store.
    public let home: String
    public let limits: PaymentLimits
    public let authentication: AuthenticationPolicy
    public let dialog: DialogOptions
    /// The app-wide vocabulary given inline.
    public let vocabulary: AppVocabulary
    /// A file holding the app-wide vocabulary, read by the adapter (replaces ``vocabulary``).
    public let vocabularyFile: String?

    public init(
        home: String, limits: PaymentLimits = .standard, authentication: AuthenticationPolicy = AuthenticationPolicy(),
        dialog: DialogOptions = DialogOptions(), vocabulary: AppVocabulary = .empty, vocabularyFile: String? = nil
    ) {
        self.home = home
        self.limits = limits
        self.authentication = authentication
        self.dialog = dialog
        self.vocabulary = vocabulary
        self.vocabularyFile = vocabularyFile
    }

    /// Parses `{"home", "limits", "authentication", "dialog", "vocabulary" | "vocabularyFile"}`.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(
            json, name: "configuration", allowed: ["home", "limits", "authentication", "dialog", "vocabulary", "vocabularyFile"])
        let home = try reader.requiredString("home", maxLength: 4096)
        guard !home.contains("\0") else { throw .invalidArgument("configuration.home contains a NUL character") }
        let file = try reader.string("vocabularyFile", maxLength: 4096)
        guard file == nil || reader["vocabulary"] == nil else {
            throw .invalidArgument("configuration has both vocabulary and vocabularyFile; give one")
        }
        guard !(file?.contains("\0") ?? false) else { throw .invalidArgument("configuration.vocabularyFile contains a NUL character") }
        self.init(
            home: home, limits: try reader["limits"].map { (v) throws(TenderError) in try PaymentLimits(json: v) } ?? .standard,
            authentication: try reader["authentication"].map { (v) throws(TenderError) in try AuthenticationPolicy(json: v) }
                ?? AuthenticationPolicy(),
            dialog: try reader["dialog"].map { (v) throws(TenderError) in try DialogOptions(json: v) } ?? DialogOptions(),
            vocabulary: try reader["vocabulary"].map { (v) throws(TenderError) in try AppVocabulary(json: v) } ?? .empty,
            vocabularyFile: file)
    }
}
