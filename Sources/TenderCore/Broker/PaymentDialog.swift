// SPDX-License-Identifier: Apache-2.0
/// One dialog as a host drives it: resolve, answer, confirm, agree, handle.
/// ``DialogSession`` is the in-process one; the broker client's session asks
/// the daemon, which runs a ``DialogSession`` of its own. Used by one thread
/// at a time, like a session.
public protocol PaymentDialog: AnyObject {
    /// How to ask the person to authenticate during handle.
    var conversation: (any Conversation)? { get set }
    /// The resolution document: `{"intent", "complete", "parameters"}`.
    func resolveJSON() throws(TenderError) -> JSONValue
    /// Applies one answer to an open question of the last resolve.
    func answer(_ answer: Answer) throws(TenderError)
    /// Records the person's answer to the confirmation question.
    func agree(_ yes: Bool) throws(TenderError)
    /// The confirm response code and document.
    func confirm() throws(TenderError) -> (code: ResponseCode, response: JSONValue)
    /// Handles the confirmed intent: the response code and the outcome document (docs/outcome.md).
    func handleDocument() throws(TenderError) -> (code: ResponseCode, outcome: JSONValue)
    /// Reads the person's reply to the question last asked and acts on it: the reply document (docs/dialog.md).
    func replyDocument(_ text: String) throws(TenderError) -> JSONValue
}

extension PaymentDialog {
    /// A dialog that does not read replies itself (a brokered one): the host reads them and answers.
    public func replyDocument(_ text: String) throws(TenderError) -> JSONValue {
        throw .wrongState("this session does not read replies; read them with the resolution's options and answer")
    }
}

extension DialogSession: PaymentDialog {
    public func replyDocument(_ text: String) throws(TenderError) -> JSONValue { document(of: try reply(text)) }

    public func handleDocument() throws(TenderError) -> (code: ResponseCode, outcome: JSONValue) {
        let outcome = try handle()
        return (outcome.code, try outcome.document())
    }
}

extension Answer {
    /// The answer's JSON form, as ``init(json:)`` reads it.
    public var json: JSONValue {
        switch kind {
        case let .choose(id): return .object([("parameter", .string(parameter)), ("choose", .string(id))])
        case let .confirm(yes): return .object([("parameter", .string(parameter)), ("confirm", .bool(yes))])
        case let .value(value): return .object([("parameter", .string(parameter)), ("value", value)])
        }
    }
}
