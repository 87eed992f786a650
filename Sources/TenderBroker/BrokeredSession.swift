// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A dialog the daemon runs: each call is relayed over the session's own
/// connection, and the daemon's ``DialogSession`` re-parses and re-checks
/// everything. Closing (deinit) ends the daemon's session. One thread at a time.
public final class BrokeredSession: PaymentDialog {
    private let connection: BrokerConnection
    public var conversation: (any Conversation)?

    /// Opens a connection to `client`'s broker and starts a dialog about `intent` (the host's JSON).
    public init(client: BrokerClient, intent: JSONValue) throws(TenderError) {
        connection = try client.connect()
        _ = try connection.call(.session, [("intent", intent)])
    }

    deinit { connection.close() }

    public func resolveJSON() throws(TenderError) -> JSONValue {
        guard let resolution = try connection.call(.resolve)["resolution"] else { throw .store("the broker answered resolve without a resolution") }
        return resolution
    }

    public func answer(_ answer: Answer) throws(TenderError) {
        _ = try connection.call(.answer, [("answer", answer.json)])
    }

    public func agree(_ yes: Bool) throws(TenderError) {
        _ = try connection.call(.agree, [("yes", .bool(yes))])
    }

    public func confirm() throws(TenderError) -> (code: ResponseCode, response: JSONValue) {
        let body = try connection.call(.confirm)
        guard let response = body["response"] else { throw .store("the broker answered confirm without a response") }
        return (try Self.code(body), response)
    }

    public func handleDocument() throws(TenderError) -> (code: ResponseCode, outcome: JSONValue) {
        let body = try connection.call(.handle, conversation: conversation)
        guard let outcome = body["outcome"] else { throw .store("the broker answered handle without an outcome") }
        return (try Self.code(body), outcome)
    }

    private static func code(_ body: JSONValue) throws(TenderError) -> ResponseCode {
        guard let name = body["code"]?.stringValue, let code = ResponseCode.allCases.first(where: { $0.name == name }) else {
            throw .store("the broker answered an unknown response code")
        }
        return code
    }
}
