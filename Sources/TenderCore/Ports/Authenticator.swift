// SPDX-License-Identifier: Apache-2.0
/// What a person can be asked during authentication, as PAM asks it.
public enum PromptKind: Int32, Sendable {
    /// A secret answer, not echoed (a password).
    case secret = 0
    /// A visible answer (a user name, a one-time code shown on screen).
    case text = 1
    /// A message to show; no answer.
    case info = 2
    /// An error message to show; no answer.
    case error = 3
}

/// The host's side of an authentication dialog. Answers go straight into
/// memory the authenticator owns and wipes; the host never gets it back.
public protocol Conversation {
    /// Asks `message` of kind `kind`. For prompts, writes the answer (UTF-8,
    /// without NUL) into `answer` and returns the number of bytes written;
    /// for messages, returns 0. Returns nil when the person cancels.
    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int?
}

/// Why an authentication did not succeed. Never carries a secret.
public enum AuthenticationDenial: Equatable, Sendable {
    /// The credentials were wrong (or empty where PAM refuses empty ones).
    case wrongCredentials(String)
    /// The account may not be used now (expired, locked by the system).
    case accountUnavailable(String)
    /// The person cancelled, or the host could not ask.
    case cancelled(String)
    /// Too many failures: no new attempt until `retryAfterSeconds`.
    case throttled(retryAfterSeconds: Int64)
    /// The authentication system itself failed.
    case systemError(String)

    /// A short machine-readable name: wrongCredentials, accountUnavailable, cancelled, throttled, systemError.
    public var name: String {
        switch self {
        case .wrongCredentials: return "wrongCredentials"
        case .accountUnavailable: return "accountUnavailable"
        case .cancelled: return "cancelled"
        case .throttled: return "throttled"
        case .systemError: return "systemError"
        }
    }

    /// A message for people and logs.
    public var message: String {
        switch self {
        case let .wrongCredentials(m), let .accountUnavailable(m), let .cancelled(m), let .systemError(m): return m
        case let .throttled(seconds): return "too many failed authentications; try again in \(seconds) s"
        }
    }
}

/// How a reserved authentication attempt ended, for throttling.
public enum AttemptOutcome: Sendable {
    case succeeded
    case failed
    case notCounted
}

/// The port that re-authenticates the person running the process (the
/// system login, through PAM). Implementations must be thread-safe.
public protocol Authenticator: Sendable {
    /// The user being authenticated: the one the process runs as.
    var user: String { get }
    /// Authenticates `user` through `conversation`; nil on success.
    func authenticate(through conversation: any Conversation) -> AuthenticationDenial?
}

/// The store's memory of authentication: throttling, audit, and the facts the
/// rules need. Implementations must be thread-safe and shared by processes.
public protocol AuthenticationRecords: Sendable {
    /// Atomically, across threads and processes: when `user` may try now,
    /// counts this attempt as a failure in advance (so parallel attempts cannot
    /// slip past the throttle) and returns 0; otherwise returns the seconds to wait.
    func reserveAttempt(user: String, throttle: ThrottlePolicy) throws(TenderError) -> Int64
    /// Settles a reserved attempt: a success resets the count, a failure keeps
    /// it, an attempt that does not count (cancelled, system error) is refunded.
    func settleAttempt(user: String, outcome: AttemptOutcome, throttle: ThrottlePolicy) throws(TenderError)
    /// Appends an audit entry (never a secret).
    func audit(user: String, event: AuditEvent, intent: String, detail: String) throws(TenderError)
    /// Whether any payment was ever recorded to `party` (``PaymentSubmission/paidParty``: a handle's
    /// ``Handle/paymentAddress``, its kind and value, so a re-pointed handle is a party never paid).
    func hasPaid(party: String) throws(TenderError) -> Bool
    /// Whether this device ever authenticated successfully; remembers it when `remember`.
    func isKnownDevice(_ device: String, remember: Bool) throws(TenderError) -> Bool
}
