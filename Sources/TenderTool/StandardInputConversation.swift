// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// Answers PAM's questions with the next line of standard input, as `sudo -S`
/// does: for scripts and tests with no terminal. The line goes byte by byte
/// into PAM's buffer, never into a Swift string. Messages go to standard error.
struct StandardInputConversation: Conversation {
    /// Shows PAM's message before the answer is read; by default on standard error.
    var announce: @Sendable (PromptKind, String) -> Void = { kind, message in
        let line = message + (kind == .info || kind == .error ? "\n" : "")
        fflush(nil)  // what was printed so far comes before the prompt, also when both go to one pipe
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
        announce(kind, message)
        guard kind == .secret || kind == .text else { return 0 }
        var length = 0
        while true {
            let byte = getchar()
            if byte == EOF { return length > 0 ? length : nil }
            if byte == 0x0A { break }
            guard length < answer.count - 1 else {
                // Too long for PAM's buffer: drain the line and cancel.
                while true {
                    let next = getchar()
                    if next == 0x0A || next == EOF { break }
                }
                return nil
            }
            answer[length] = UInt8(truncatingIfNeeded: byte)
            length += 1
        }
        if length > 0, answer[length - 1] == 0x0D { length -= 1 }
        return length
    }
}
