// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The client's end of one broker connection: `hello` once, then calls, each
/// answered by `ok` or `error` (an error becomes the same ``TenderError`` the
/// daemon threw). During a call the daemon may ask the conversation with
/// `prompt`; the answer goes back as `reply`, or `cancel`. One thread at a time.
public final class BrokerConnection {
    /// How long a call waits for the daemon's answer (a handle may wait for the store and PAM's fail delay).
    public static let answerTimeoutMilliseconds: Int32 = 300_000
    /// The largest answer a conversation may give (PAM's PAM_MAX_RESP_SIZE).
    static let maxAnswerBytes = 512

    private let socket: BrokerSocket
    /// The uid and user name the daemon acts for, as it identified this client.
    public let user: String

    /// Connects to the broker at `path` and says hello with the client's
    /// `authentication` policy (restrictions the daemon adds to root's policy).
    /// Throws ``TenderError/authService(_:)`` before connecting when the process's
    /// real and effective uids differ: the daemon knows only the effective uid
    /// (`SO_PEERCRED`), so a setuid program or one after `setresuid` would be
    /// served as that user, while in process the same engine is refused.
    public init(path: String, authentication: JSONValue?) throws(TenderError) {
        let real = getuid()
        let effective = geteuid()
        guard real == effective else {
            throw .authService(
                "the real uid (\(real)) and the effective uid (\(effective)) differ; Tender acts only for a process whose real and effective users are the same, brokered or not")
        }
        socket = try BrokerSocket.connect(path: path)
        var body: [(key: String, value: JSONValue)] = []
        if let authentication { body.append(("authentication", authentication)) }
        let answer = try Self.exchange(socket, BrokerMessage(.hello, body), conversation: nil)
        user = answer["user"]?.stringValue ?? ""
    }

    /// Sends `op` with `body` and answers the `ok` body.
    public func call(_ op: BrokerOp, _ body: [(key: String, value: JSONValue)] = [], conversation: (any Conversation)? = nil) throws(TenderError)
        -> JSONValue
    {
        try Self.exchange(socket, BrokerMessage(op, body), conversation: conversation)
    }

    /// Closes the connection: the daemon ends the session, leaving nothing half
    /// done, and gives back its slot before this returns (at most a second's wait).
    public func close() { socket.finish() }

    private static func exchange(_ socket: BrokerSocket, _ request: BrokerMessage, conversation: (any Conversation)?) throws(TenderError)
        -> JSONValue
    {
        try socket.send(request)
        while true {
            let message = try socket.receive(timeoutMilliseconds: answerTimeoutMilliseconds)
            switch message.op {
            case .ok: return message.body
            case .error: throw TenderError(brokerBody: message.body)
            case .prompt: try socket.send(answer(message.body, conversation))
            default: throw .store("the broker answered an unexpected \(message.op.rawValue)")
            }
        }
    }

    /// Asks the host's conversation what the daemon's PAM asks; the answer is wiped once framed.
    private static func answer(_ prompt: JSONValue, _ conversation: (any Conversation)?) throws(TenderError) -> BrokerMessage {
        let reader = try ObjectReader(prompt, name: "prompt", allowed: ["kind", "message"])
        guard let kindName = try reader.string("kind", maxLength: 16), let kind = PromptKind(brokerName: kindName) else {
            throw .store("the broker sent a prompt of no known kind")
        }
        let text = try reader.string("message", maxLength: 4096) ?? ""
        guard let conversation else { return BrokerMessage(.cancel) }
        var buffer = [UInt8](repeating: 0, count: maxAnswerBytes)
        defer { buffer.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, $0.count) } }
        let written = buffer.withUnsafeMutableBytes { raw in
            conversation.converse(kind: kind, message: text, answer: kind == .secret || kind == .text ? raw : UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        guard let written, written >= 0, written < maxAnswerBytes else { return BrokerMessage(.cancel) }
        guard kind == .secret || kind == .text else { return BrokerMessage(.reply) }
        let end = buffer[0..<written].firstIndex(of: 0) ?? written
        guard let answer = String(validating: buffer[0..<end], as: UTF8.self) else { return BrokerMessage(.cancel) }
        return BrokerMessage(.reply, [("answer", .string(answer))])
    }
}

extension PromptKind {
    /// The kind's name in a `prompt` message: secret, text, info or error.
    public var brokerName: String {
        switch self {
        case .secret: return "secret"
        case .text: return "text"
        case .info: return "info"
        case .error: return "error"
        }
    }

    /// The kind named `brokerName`, or nil.
    public init?(brokerName: String) {
        switch brokerName {
        case "secret": self = .secret
        case "text": self = .text
        case "info": self = .info
        case "error": self = .error
        default: return nil
        }
    }
}
