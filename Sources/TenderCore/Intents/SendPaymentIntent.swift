/// SiriKit's INSendPaymentIntent as the host states it: every parameter optional.
public struct SendPaymentIntent: Equatable, Sendable {
    /// The intent's name in JSON.
    public static let name = "send_payment"
    /// The longest note accepted, in characters.
    public static let maxNoteLength = 500

    public var payee: PayeeQuery?
    public var currencyAmount: Money?
    public var note: String?
    /// Names the payment across retries; nil lets the session choose one.
    public var idempotencyKey: String?
    /// The host's name for the device the request came from, for the new-device rule.
    public var device: String?

    public init(payee: PayeeQuery? = nil, currencyAmount: Money? = nil, note: String? = nil, idempotencyKey: String? = nil) {
        self.payee = payee
        self.currencyAmount = currencyAmount
        self.note = note
        self.idempotencyKey = idempotencyKey
    }

    /// Parses the intent document (schema in docs/json.md).
    public init(json: JSONValue) throws(TenderError) {
        guard json.objectMembers != nil else { throw .invalidArgument("the intent must be a JSON object") }
        guard let kind = json["intent"]?.stringValue else { throw .invalidArgument("intent is required and must be a string") }
        guard kind == SendPaymentIntent.name else { throw .unknownIntent("unknown intent \"\(kind.prefix(40))\"") }
        let reader = try ObjectReader(
            json, name: "intent", allowed: ["intent", "payee", "currencyAmount", "note", "idempotencyKey", "device"])
        self.init()
        if let payee = reader["payee"] { self.payee = try PayeeQuery(json: payee, field: "payee") }
        if let amount = reader["currencyAmount"] { currencyAmount = try Money(json: amount, field: "currencyAmount") }
        note = try reader.string("note", maxLength: SendPaymentIntent.maxNoteLength)
        if let key = try reader.string("idempotencyKey", maxLength: 128) {
            guard !key.isEmpty, key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                throw .invalidArgument("idempotencyKey must be 1 to 128 printable ASCII characters")
            }
            idempotencyKey = key
        }
        device = try reader.string("device", maxLength: 128)
    }
}
