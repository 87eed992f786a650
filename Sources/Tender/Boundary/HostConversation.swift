// SPDX-License-Identifier: Apache-2.0
import CTender
import TenderCore

/// The ``Conversation`` port on the host's C callback.
struct HostConversation: Conversation {
    let function: tender_conversation_fn
    let userdata: UnsafeMutableRawPointer?

    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
        let buffer = answer.baseAddress?.assumingMemoryBound(to: CChar.self)
        let size = buffer == nil ? 0 : answer.count
        if let buffer, size > 0 { buffer[0] = 0 }
        let status = message.withCString { function(userdata, kind.rawValue, $0, buffer, size) }
        guard status == 0 else { return nil }
        guard let buffer, size > 0 else { return 0 }
        buffer[size - 1] = 0
        return strnlenAnswer(buffer, size)
    }

    private func strnlenAnswer(_ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
        var length = 0
        while length < size && buffer[length] != 0 { length += 1 }
        return length
    }
}
