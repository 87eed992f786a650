// SPDX-License-Identifier: Apache-2.0
/// How a ``TenderError`` crosses the broker socket: `{"code": NAME, "message"}`,
/// so the client throws the same error (and the C API returns the same
/// result code) as the in-process engine would.
extension TenderError {
    /// The error as an `error` message's body.
    public var brokerBody: [(key: String, value: JSONValue)] { [("code", .string(wireName)), ("message", .string(message))] }

    /// The error an `error` message's body describes; a body that names no
    /// known error becomes ``TenderError/internal(_:)``.
    public init(brokerBody body: JSONValue) {
        let name = body["code"]?.stringValue ?? ""
        let message = String((body["message"]?.stringValue ?? "the broker answered an error without a message").prefix(4096))
        self = Self.wireCases[name]?(message) ?? .internal("the broker answered an unknown error \"\(name.prefix(40))\": \(message)")
    }

    private var wireName: String {
        switch self {
        case .nullArgument: return "nullArgument"
        case .invalidUTF8: return "invalidUTF8"
        case .invalidJSON: return "invalidJSON"
        case .tooLarge: return "tooLarge"
        case .invalidArgument: return "invalidArgument"
        case .invalidAmount: return "invalidAmount"
        case .unknownCurrency: return "unknownCurrency"
        case .unknownIntent: return "unknownIntent"
        case .outOfScope: return "outOfScope"
        case .wrongState: return "wrongState"
        case .notAsked: return "notAsked"
        case .unknownOption: return "unknownOption"
        case .idempotencyConflict: return "idempotencyConflict"
        case .dialogEnded: return "dialogEnded"
        case .notAgreed: return "notAgreed"
        case .store: return "store"
        case .storeBusy: return "storeBusy"
        case .home: return "home"
        case .notFound: return "notFound"
        case .crypto: return "crypto"
        case .keyFile: return "keyFile"
        case .ledgerTampered: return "ledgerTampered"
        case .authService: return "authService"
        case .callback: return "callback"
        case .outcomeUnknown: return "outcomeUnknown"
        case .internal: return "internal"
        }
    }

    private static let wireCases: [String: @Sendable (String) -> TenderError] = [
        "nullArgument": TenderError.nullArgument, "invalidUTF8": TenderError.invalidUTF8, "invalidJSON": TenderError.invalidJSON,
        "tooLarge": TenderError.tooLarge, "invalidArgument": TenderError.invalidArgument, "invalidAmount": TenderError.invalidAmount,
        "unknownCurrency": TenderError.unknownCurrency, "unknownIntent": TenderError.unknownIntent, "outOfScope": TenderError.outOfScope,
        "wrongState": TenderError.wrongState, "notAsked": TenderError.notAsked, "unknownOption": TenderError.unknownOption,
        "idempotencyConflict": TenderError.idempotencyConflict, "dialogEnded": TenderError.dialogEnded, "notAgreed": TenderError.notAgreed,
        "store": TenderError.store, "storeBusy": TenderError.storeBusy, "home": TenderError.home, "notFound": TenderError.notFound,
        "crypto": TenderError.crypto, "keyFile": TenderError.keyFile, "ledgerTampered": TenderError.ledgerTampered,
        "authService": TenderError.authService, "callback": TenderError.callback, "outcomeUnknown": TenderError.outcomeUnknown,
        "internal": TenderError.internal,
    ]
}
