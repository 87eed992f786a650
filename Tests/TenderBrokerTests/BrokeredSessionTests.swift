// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Glibc
@testable import TenderBroker
import TenderCore
import TenderTestSupport
import Testing

/// The client's side against a scripted daemon: what it sends, how it relays PAM's prompts to the
/// host's conversation, and how the daemon's errors come back.
@Suite struct BrokeredSessionTests {
    /// Answers a secret prompt with `password`, or cancels when it is nil; remembers what it was asked.
    final class Typist: Conversation, @unchecked Sendable {
        let password: String?
        var asked: [(PromptKind, String)] = []
        init(_ password: String?) { self.password = password }

        func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
            asked.append((kind, message))
            guard kind == .secret else { return 0 }
            guard let password else { return nil }
            let bytes = Array(password.utf8)
            answer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    /// Runs `script` as the daemon on the one connection a client makes to a fresh socket.
    private func daemon(_ script: @escaping @Sendable (BrokerSocket) throws -> Void) throws -> (TemporaryHome, BrokerClient, DispatchGroup) {
        let home = TemporaryHome(prefix: "brokered")
        let listener = try BrokerSocket.listen(path: home.path + "/socket", mode: 0o600)
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            defer { done.leave() }
            guard let connection = listener.accept() else { return }
            try? script(connection)
            _ = listener
        }
        return (home, BrokerClient(path: home.path + "/socket", authentication: .object([("newPayee", .bool(true))])), done)
    }

    private static func expect(_ socket: BrokerSocket, _ op: BrokerOp) throws -> BrokerMessage {
        let message = try socket.receive(timeoutMilliseconds: 5000)
        guard message.op == op else { throw TenderError.wrongState("expected \(op.rawValue), got \(message.op.rawValue)") }
        return message
    }

    private static func hello(_ socket: BrokerSocket) throws {
        let hello = try expect(socket, .hello)
        guard hello.body["authentication"]?["newPayee"] == .bool(true) else { throw TenderError.invalidArgument("the policy was not sent") }
        try socket.send(BrokerMessage(.ok, [("uid", .number("1000")), ("user", .string("ada"))]))
    }

    /// The daemon's side of hello and session.
    private static func openSession(_ socket: BrokerSocket) throws {
        try hello(socket)
        _ = try expect(socket, .session)
        try socket.send(BrokerMessage(.ok))
    }

    @Test func relaysPAMsPromptsToTheConversation() throws {
        let replies = PthreadLockedBox()
        let (home, client, done) = try daemon { socket in
            try Self.openSession(socket)
            _ = try Self.expect(socket, .handle)
            try socket.send(BrokerMessage(.prompt, [("kind", .string("info")), ("message", .string("Hello"))]))
            replies.append(try socket.receive(timeoutMilliseconds: 5000))
            try socket.send(BrokerMessage(.prompt, [("kind", .string("secret")), ("message", .string("Password: "))]))
            replies.append(try socket.receive(timeoutMilliseconds: 5000))
            try socket.send(BrokerMessage(.ok, [("code", .string("success")), ("outcome", .object([("code", .string("success"))]))]))
        }
        defer { withExtendedLifetime(home) {} }
        let session = try BrokeredSession(client: client, intent: .object([("intent", .string("send_payment"))]))
        let typist = Typist("open sesame")
        session.conversation = typist
        let (code, outcome) = try session.handleDocument()
        #expect(code == .success && outcome["code"] == .string("success"))
        done.wait()
        #expect(typist.asked.map(\.1) == ["Hello", "Password: "])
        #expect(replies.messages.map(\.op) == [.reply, .reply])
        #expect(replies.messages.last?.body["answer"] == .string("open sesame"))
    }

    @Test func aCancelledConversationSendsCancel() throws {
        let replies = PthreadLockedBox()
        let (home, client, done) = try daemon { socket in
            try Self.openSession(socket)
            _ = try Self.expect(socket, .handle)
            try socket.send(BrokerMessage(.prompt, [("kind", .string("secret")), ("message", .string("Password: "))]))
            replies.append(try socket.receive(timeoutMilliseconds: 5000))
            try socket.send(BrokerMessage(.ok, [("code", .string("failureCredentialsUnverified")), ("outcome", .object([]))]))
        }
        defer { withExtendedLifetime(home) {} }
        let session = try BrokeredSession(client: client, intent: .object([("intent", .string("send_payment"))]))
        session.conversation = Typist(nil)
        #expect(try session.handleDocument().code == .failureCredentialsUnverified)
        done.wait()
        #expect(replies.messages.map(\.op) == [.cancel])
    }

    @Test func theDaemonsErrorsComeBackAsTheSameErrors() throws {
        let (home, client, done) = try daemon { socket in
            try Self.openSession(socket)
            _ = try Self.expect(socket, .agree)
            try socket.send(BrokerMessage(.error, TenderError.wrongState("no question is open").brokerBody))
            _ = try Self.expect(socket, .confirm)
            try socket.send(BrokerMessage(.ok, [("code", .string("noSuchCode")), ("response", .object([]))]))
        }
        defer { withExtendedLifetime(home) {} }
        let session = try BrokeredSession(client: client, intent: .object([("intent", .string("send_payment"))]))
        #expect(throws: TenderError.wrongState("no question is open")) { try session.agree(true) }
        #expect(throws: TenderError.store("the broker answered an unknown response code")) { try session.confirm() }
        done.wait()
    }

    @Test func aBrokerThatDoesNotAnswerIsAStoreError() {
        let client = BrokerClient(path: "/nonexistent/socket", authentication: nil)
        #expect {
            try client.records()
        } throws: { error in
            guard case let .store(message)? = error as? TenderError else { return false }
            return message.hasPrefix("the broker at /nonexistent/socket does not answer")
        }
    }
}

/// Messages a scripted daemon received, read after it finished.
final class PthreadLockedBox: @unchecked Sendable {
    private let lock = PthreadLocked<[BrokerMessage]>([])
    func append(_ message: BrokerMessage) { lock.withLock { $0.append(message) } }
    var messages: [BrokerMessage] { lock.withLock { $0 } }
}
