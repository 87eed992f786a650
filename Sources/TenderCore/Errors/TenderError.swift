// SPDX-License-Identifier: Apache-2.0
/// Every failure Tender reports. Each case maps to one C result code; the
/// message never contains payment data (names, amounts, notes).
public enum TenderError: Error, Equatable, Sendable {
    case nullArgument(String)
    case invalidUTF8(String)
    case invalidJSON(String)
    case tooLarge(String)
    case invalidArgument(String)
    case invalidAmount(String)
    case unknownCurrency(String)
    case unknownIntent(String)
    case outOfScope(String)
    case wrongState(String)
    case notAsked(String)
    case unknownOption(String)
    case idempotencyConflict(String)
    case dialogEnded(String)
    /// Handle was asked to move money before the person said yes to the confirmation question.
    case notAgreed(String)
    case store(String)
    case storeBusy(String)
    case home(String)
    case notFound(String)
    case crypto(String)
    case keyFile(String)
    case ledgerTampered(String)
    case authService(String)
    /// A host callback (directory lookup, can_send, send) failed, answered nothing or answered something invalid.
    case callback(String)
    /// The host was asked to move money under an idempotency key and its answer was never recorded (the
    /// process asking it ended): Tender does not ask again; `tender status KEY completed|failed` settles it.
    case outcomeUnknown(String)
    case `internal`(String)

    /// The detailed message.
    public var message: String {
        switch self {
        case let .nullArgument(m), let .invalidUTF8(m), let .invalidJSON(m), let .tooLarge(m), let .invalidArgument(m),
            let .invalidAmount(m), let .unknownCurrency(m), let .unknownIntent(m), let .outOfScope(m), let .wrongState(m),
            let .notAsked(m), let .unknownOption(m), let .idempotencyConflict(m), let .dialogEnded(m), let .notAgreed(m), let .store(m),
            let .storeBusy(m), let .home(m), let .notFound(m), let .crypto(m), let .keyFile(m), let .ledgerTampered(m), let .authService(m),
            let .callback(m), let .outcomeUnknown(m), let .internal(m):
            return m
        }
    }
}

extension TenderError: CustomStringConvertible {
    public var description: String { message }
}

extension TenderError {
    /// The same kind of error (so the same C code) with another message, e.g. one naming the file it came from.
    public func withMessage(_ message: String) -> TenderError {
        switch self {
        case .nullArgument: return .nullArgument(message)
        case .invalidUTF8: return .invalidUTF8(message)
        case .invalidJSON: return .invalidJSON(message)
        case .tooLarge: return .tooLarge(message)
        case .invalidArgument: return .invalidArgument(message)
        case .invalidAmount: return .invalidAmount(message)
        case .unknownCurrency: return .unknownCurrency(message)
        case .unknownIntent: return .unknownIntent(message)
        case .outOfScope: return .outOfScope(message)
        case .wrongState: return .wrongState(message)
        case .notAsked: return .notAsked(message)
        case .unknownOption: return .unknownOption(message)
        case .idempotencyConflict: return .idempotencyConflict(message)
        case .dialogEnded: return .dialogEnded(message)
        case .notAgreed: return .notAgreed(message)
        case .store: return .store(message)
        case .storeBusy: return .storeBusy(message)
        case .home: return .home(message)
        case .notFound: return .notFound(message)
        case .crypto: return .crypto(message)
        case .keyFile: return .keyFile(message)
        case .ledgerTampered: return .ledgerTampered(message)
        case .authService: return .authService(message)
        case .callback: return .callback(message)
        case .outcomeUnknown: return .outcomeUnknown(message)
        case .internal: return .internal(message)
        }
    }
}
