/// The shared heart of Tender: the ports and the policy every session uses.
///
/// Immutable and thread-safe when its ports are; share one per process.
public final class Engine: Sendable {
    public let directory: any Directory
    public let ledger: any PaymentLedger
    public let limits: PaymentLimits
    /// Re-authentication before payments; ``AuthenticationGate/open`` asks nothing.
    public let gate: AuthenticationGate

    public init(directory: any Directory, ledger: any PaymentLedger, limits: PaymentLimits = .standard, gate: AuthenticationGate = .open) {
        self.directory = directory
        self.ledger = ledger
        self.limits = limits
        self.gate = gate
    }
}
