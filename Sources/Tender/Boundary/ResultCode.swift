import CTender
import TenderCore

/// Maps Tender's Swift errors to the C result codes of tender.h.
enum ResultCode {
    static let ok = value(TENDER_OK)

    /// The code the header names for `constant`.
    static func value(_ constant: tender_result_code) -> tender_result { tender_result(bitPattern: constant.rawValue) }

    /// The C code of `error`.
    static func of(_ error: TenderError) -> tender_result {
        switch error {
        case .nullArgument: return value(TENDER_E_NULL_ARGUMENT)
        case .invalidUTF8: return value(TENDER_E_INVALID_UTF8)
        case .invalidJSON: return value(TENDER_E_INVALID_JSON)
        case .tooLarge: return value(TENDER_E_TOO_LARGE)
        case .invalidArgument: return value(TENDER_E_INVALID_ARGUMENT)
        case .invalidAmount: return value(TENDER_E_INVALID_AMOUNT)
        case .unknownCurrency: return value(TENDER_E_UNKNOWN_CURRENCY)
        case .unknownIntent: return value(TENDER_E_UNKNOWN_INTENT)
        case .outOfScope: return value(TENDER_E_OUT_OF_SCOPE)
        case .wrongState: return value(TENDER_E_WRONG_STATE)
        case .notAsked: return value(TENDER_E_NOT_ASKED)
        case .unknownOption: return value(TENDER_E_UNKNOWN_OPTION)
        case .idempotencyConflict: return value(TENDER_E_IDEMPOTENCY_CONFLICT)
        case .dialogEnded: return value(TENDER_E_DIALOG_ENDED)
        case .notAgreed: return value(TENDER_E_NOT_AGREED)
        case .store: return value(TENDER_E_STORE)
        case .storeBusy: return value(TENDER_E_STORE_BUSY)
        case .home: return value(TENDER_E_HOME)
        case .notFound: return value(TENDER_E_NOT_FOUND)
        case .crypto: return value(TENDER_E_CRYPTO)
        case .keyFile: return value(TENDER_E_KEY_FILE)
        case .ledgerTampered: return value(TENDER_E_LEDGER_TAMPERED)
        case .authService: return value(TENDER_E_AUTH_SERVICE)
        case .callback: return value(TENDER_E_CALLBACK)
        case .internal: return value(TENDER_E_INTERNAL)
        }
    }

    /// The static name of `code`, as tender_result_str() returns it.
    static func name(_ code: tender_result) -> StaticString {
        switch code {
        case value(TENDER_OK): return "TENDER_OK"
        case value(TENDER_E_NULL_ARGUMENT): return "TENDER_E_NULL_ARGUMENT"
        case value(TENDER_E_INVALID_UTF8): return "TENDER_E_INVALID_UTF8"
        case value(TENDER_E_INVALID_JSON): return "TENDER_E_INVALID_JSON"
        case value(TENDER_E_TOO_LARGE): return "TENDER_E_TOO_LARGE"
        case value(TENDER_E_INVALID_ARGUMENT): return "TENDER_E_INVALID_ARGUMENT"
        case value(TENDER_E_INVALID_AMOUNT): return "TENDER_E_INVALID_AMOUNT"
        case value(TENDER_E_UNKNOWN_CURRENCY): return "TENDER_E_UNKNOWN_CURRENCY"
        case value(TENDER_E_UNKNOWN_INTENT): return "TENDER_E_UNKNOWN_INTENT"
        case value(TENDER_E_OUT_OF_SCOPE): return "TENDER_E_OUT_OF_SCOPE"
        case value(TENDER_E_WRONG_STATE): return "TENDER_E_WRONG_STATE"
        case value(TENDER_E_NOT_ASKED): return "TENDER_E_NOT_ASKED"
        case value(TENDER_E_UNKNOWN_OPTION): return "TENDER_E_UNKNOWN_OPTION"
        case value(TENDER_E_IDEMPOTENCY_CONFLICT): return "TENDER_E_IDEMPOTENCY_CONFLICT"
        case value(TENDER_E_DIALOG_ENDED): return "TENDER_E_DIALOG_ENDED"
        case value(TENDER_E_NOT_AGREED): return "TENDER_E_NOT_AGREED"
        case value(TENDER_E_STORE): return "TENDER_E_STORE"
        case value(TENDER_E_STORE_BUSY): return "TENDER_E_STORE_BUSY"
        case value(TENDER_E_HOME): return "TENDER_E_HOME"
        case value(TENDER_E_NOT_FOUND): return "TENDER_E_NOT_FOUND"
        case value(TENDER_E_CRYPTO): return "TENDER_E_CRYPTO"
        case value(TENDER_E_KEY_FILE): return "TENDER_E_KEY_FILE"
        case value(TENDER_E_LEDGER_TAMPERED): return "TENDER_E_LEDGER_TAMPERED"
        case value(TENDER_E_AUTH_SERVICE): return "TENDER_E_AUTH_SERVICE"
        case value(TENDER_E_CALLBACK): return "TENDER_E_CALLBACK"
        case value(TENDER_E_INTERNAL): return "TENDER_E_INTERNAL"
        default: return "TENDER_E_UNKNOWN_CODE"
        }
    }
}
