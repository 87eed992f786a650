// SPDX-License-Identifier: Apache-2.0
import TenderBroker
import TenderCore
import TenderStore

/// One connection, served on its own thread: the peer's uid from
/// SO_PEERCRED, `hello`, then either one dialog or engine calls, until the
/// client closes, sends something invalid or is too slow. Every message is
/// re-parsed and re-checked by the same code as in process (``DialogSession``,
/// the store's ports); nothing the client says about itself is believed.
final class ClientSession {
    private let socket: BrokerSocket
    private let daemon: Daemon
    private var user: ClientUser?
    private var engine: Engine?
    private var dialog: DialogSession?

    init(socket: BrokerSocket, daemon: Daemon) {
        self.socket = socket
        self.daemon = daemon
    }

    /// Serves the connection to its end. A framing, size or time-out error
    /// ends it (the stream cannot be trusted after one); an error in a
    /// well-formed request is answered and the connection stays open. The
    /// caller closes the socket, after giving back the connection's slot.
    func run() {
        do throws(TenderError) {
            let uid = try socket.peerUID()
            let hello = try socket.receive(timeoutMilliseconds: daemon.options.timeoutMilliseconds)
            guard hello.op == .hello else { throw .wrongState("a connection starts with hello") }
            let reader = try hello.reader(allowed: ["authentication"])
            // The client's policy is read as any configuration's, without testing: it cannot name a PAM stack.
            let client = try reader["authentication"].map { (json) throws(TenderError) in try AuthenticationPolicy(json: json, testing: false) }
            let user = try daemon.users.user(uid)
            self.user = user
            engine = try user.engine(root: daemon.policy, client: client)
            try socket.send(BrokerMessage(.ok, [("uid", .number(String(uid))), ("user", .string(user.name))]))
        } catch {
            try? socket.send(BrokerMessage(.error, error.brokerBody))
            return
        }
        while true {
            let request: BrokerMessage
            do throws(TenderError) {
                request = try socket.receive(timeoutMilliseconds: daemon.options.timeoutMilliseconds)
            } catch {
                // End of file, a slow client, an oversized or forged frame: answer if possible, then close.
                if case .store = error { return }
                try? socket.send(BrokerMessage(.error, error.brokerBody))
                return
            }
            let answer: BrokerMessage
            do throws(TenderError) {
                answer = BrokerMessage(.ok, try serve(request))
            } catch {
                answer = BrokerMessage(.error, error.brokerBody)
            }
            do throws(TenderError) { try socket.send(answer) } catch { return }
        }
    }

    private func serve(_ request: BrokerMessage) throws(TenderError) -> [(key: String, value: JSONValue)] {
        guard let user, let engine else { throw .internal("no session") }
        let store = user.store
        switch request.op {
        case .session:
            let reader = try request.reader(allowed: ["intent"])
            guard dialog == nil else { throw .wrongState("a connection carries one session; open another connection") }
            guard let intent = reader["intent"] else { throw .invalidArgument("session.intent is required") }
            dialog = try DialogSession(engine: engine, json: intent)
            return []
        case .resolve:
            _ = try request.reader(allowed: [])
            return [("resolution", try open().resolveJSON())]
        case .answer:
            let reader = try request.reader(allowed: ["answer"])
            guard let answer = reader["answer"] else { throw .invalidArgument("answer.answer is required") }
            try open().answer(try Answer(json: answer))
            return []
        case .agree:
            let reader = try request.reader(allowed: ["yes"])
            guard let yes = try reader.bool("yes") else { throw .invalidArgument("agree.yes is required") }
            try open().agree(yes)
            return []
        case .confirm:
            _ = try request.reader(allowed: [])
            let (code, response) = try open().confirm()
            return [("code", .string(code.name)), ("response", response)]
        case .handle:
            _ = try request.reader(allowed: [])
            let session = try open()
            session.conversation = SocketConversation(socket: socket, timeoutMilliseconds: daemon.options.timeoutMilliseconds)
            defer { session.conversation = nil }
            let (code, outcome) = try session.handleDocument()
            return [("code", .string(code.name)), ("outcome", outcome)]
        default:
            guard dialog == nil else { throw .wrongState("a connection with a session carries only its dialog") }
            return try EngineCalls.serve(request, store: store)
        }
    }

    private func open() throws(TenderError) -> DialogSession {
        guard let dialog else { throw .wrongState("no session: send session with an intent first") }
        return dialog
    }
}
