// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderBroker
import TenderCore

/// The ``Conversation`` PAM uses in the daemon: each prompt goes to the
/// client as a `prompt` message and its `reply` comes back within the
/// timeout; anything else (cancel, a broken or slow connection, a forged
/// answer) cancels, so the authentication fails and nothing is paid.
struct SocketConversation: Conversation {
    let socket: BrokerSocket
    let timeoutMilliseconds: Int32

    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
        do throws(TenderError) {
            try socket.send(BrokerMessage(.prompt, [("kind", .string(kind.brokerName)), ("message", .string(message))]))
            let reply = try socket.receive(timeoutMilliseconds: timeoutMilliseconds)
            guard reply.op == .reply else { return nil }
            let reader = try reply.reader(allowed: ["answer"])
            guard kind == .secret || kind == .text else { return 0 }
            guard var text = try reader.string("answer", maxLength: 511) else { return nil }
            let bytes = text.utf8.count
            guard bytes < answer.count, !text.utf8.contains(0) else { return nil }
            text.withUTF8 { answer.copyMemory(from: UnsafeRawBufferPointer($0)) }
            return bytes
        } catch {
            return nil
        }
    }
}
