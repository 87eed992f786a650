// SPDX-License-Identifier: Apache-2.0
/// The shared heart of Tender: the ports and the policy every session uses.
///
/// Immutable and thread-safe when its ports are; share one per process.
public final class Engine: Sendable {
    public let directory: any Directory
    public let ledger: any PaymentLedger
    public let limits: PaymentLimits
    /// Re-authentication before payments; ``AuthenticationGate/open`` asks nothing.
    public let gate: AuthenticationGate
    /// How often a parameter may be asked for before the dialog ends.
    public let maxPrompts: Int
    /// Whether handle moves money only after the person said yes (``DialogSession/agree(_:)``).
    public let requiresAgreement: Bool
    /// The fee of a transfer, by currency code (none: free).
    public let transferFees: [String: Money]
    /// The app-wide vocabulary (parameter synonyms).
    public let appVocabulary: AppVocabulary
    /// The host's payment service, when it moves the money itself; nil: the store's balances.
    public let backend: (any PaymentBackend)?
    /// Today's date, for scheduled dates and bill payment dates.
    public let today: @Sendable () -> LocalDate
    /// The custom intents sessions may start, and the host that handles them.
    public let customIntents: CustomIntentCatalog
    /// The language sentences are said in when a request does not name its own (the configuration's `locale`).
    public let language: SpeechLanguage
    /// The durable claims that let the host be asked at most once per idempotency key: `claims`, else the
    /// ledger when it keeps them. Nil (a brokered ledger) refuses to ask a host to move money.
    public let claims: (any HostCallClaims)?

    public init(
        directory: any Directory, ledger: any PaymentLedger, limits: PaymentLimits = .standard, gate: AuthenticationGate = .open,
        dialog: DialogOptions = DialogOptions(), appVocabulary: AppVocabulary = .empty, backend: (any PaymentBackend)? = nil,
        customIntents: CustomIntentCatalog = CustomIntentCatalog(), claims: (any HostCallClaims)? = nil,
        today: @escaping @Sendable () -> LocalDate
    ) {
        self.customIntents = customIntents
        self.claims = claims ?? (ledger as? any HostCallClaims)
        self.directory = directory
        self.ledger = ledger
        self.limits = limits
        self.gate = gate
        self.maxPrompts = dialog.maxPrompts
        self.transferFees = dialog.transferFees
        self.requiresAgreement = dialog.requireAgreement
        self.language = dialog.language
        self.appVocabulary = appVocabulary
        self.backend = backend
        self.today = today
    }
}
