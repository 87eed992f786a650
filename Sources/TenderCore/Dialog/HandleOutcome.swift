/// What handle answered: the response code, and the signed record (for an
/// intent that moves money) or the search result (for a search).
public struct HandleOutcome: Equatable, Sendable {
    public let code: ResponseCode
    public let record: PaymentRecord?
    public let result: JSONValue?

    public init(code: ResponseCode, record: PaymentRecord? = nil, result: JSONValue? = nil) {
        self.code = code
        self.record = record
        self.result = result
    }
}
