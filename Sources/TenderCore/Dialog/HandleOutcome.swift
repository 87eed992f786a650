// SPDX-License-Identifier: Apache-2.0
/// What handle answered: the response code, and the signed record (for an
/// intent that moves money), the search result (for a search) or why the
/// person was not authenticated (failureCredentialsUnverified).
public struct HandleOutcome: Equatable, Sendable {
    public let code: ResponseCode
    public let record: PaymentRecord?
    public let result: JSONValue?
    public let denial: AuthenticationDenial?
    /// A custom intent's answer: the host's code and values, and the response in the person's words.
    public let response: CustomIntentResponse?
    /// What to say to the person about it, in their language ("Sent $50 to John Baily."); set by the session.
    public var say: String?

    public init(
        code: ResponseCode, record: PaymentRecord? = nil, result: JSONValue? = nil, denial: AuthenticationDenial? = nil,
        response: CustomIntentResponse? = nil
    ) {
        self.code = code
        self.record = record
        self.result = result
        self.denial = denial
        self.response = response
    }

    /// The handle outcome document (docs/outcome.md): `code`, and `record`
    /// with `jws`, `result`, `denial`, a custom intent's `response` and `say` when present. Throws
    /// ``TenderError/internal(_:)`` if the record's own JSON does not parse.
    public func document() throws(TenderError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .string(code.name))]
        if let record {
            let fields: JSONValue
            do throws(TenderError) { fields = try JSONParser.parse(record.json) } catch {
                throw .internal("record \(record.sequence) is not JSON: \(error.message)")
            }
            members += [("record", fields), ("jws", .string(record.jws))]
        }
        if let result { members.append(("result", result)) }
        if let denial { members.append(("denial", denial.document)) }
        if let response { members.append(("response", response.json)) }
        if let say { members.append(("say", .string(say))) }
        return .object(members)
    }
}

extension AuthenticationDenial {
    /// `{"reason", "message"}`, plus `"retryAfterSeconds"` when throttled.
    public var document: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("reason", .string(name)), ("message", .string(message))]
        if case let .throttled(seconds) = self { members.append(("retryAfterSeconds", .number(String(seconds)))) }
        return .object(members)
    }
}
