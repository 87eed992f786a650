/// An engine's configuration, from its JSON form (docs/json.md).
public struct EngineConfiguration: Equatable, Sendable {
    /// The directory holding the store.
    public let home: String
    public let limits: PaymentLimits
    public let authentication: AuthenticationPolicy

    public init(home: String, limits: PaymentLimits = .standard, authentication: AuthenticationPolicy = AuthenticationPolicy()) {
        self.home = home
        self.limits = limits
        self.authentication = authentication
    }

    /// Parses `{"home": "...", "limits": {...}, "authentication": {...}}`.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "configuration", allowed: ["home", "limits", "authentication"])
        let home = try reader.requiredString("home", maxLength: 4096)
        guard !home.contains("\0") else { throw .invalidArgument("configuration.home contains a NUL character") }
        self.init(
            home: home, limits: try reader["limits"].map { (v) throws(TenderError) in try PaymentLimits(json: v) } ?? .standard,
            authentication: try reader["authentication"].map { (v) throws(TenderError) in try AuthenticationPolicy(json: v) }
                ?? AuthenticationPolicy())
    }
}
