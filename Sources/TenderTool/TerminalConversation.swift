// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// Asks PAM's questions on the controlling terminal (/dev/tty): secrets
/// without echo, the answer read straight into PAM's buffer and wiped from
/// the terminal line buffer; messages printed. Cancels when there is no
/// terminal or the person ends input.
struct TerminalConversation: Conversation {
    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return kind == .info || kind == .error ? 0 : nil }
        defer { close(fd) }
        fflush(nil)  // the dialog printed so far comes before the prompt
        let prompt = Array(message.utf8)
        _ = prompt.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if kind == .info || kind == .error {
            _ = write(fd, "\n", 1)
            return 0
        }
        var saved = termios()
        let hideEcho = kind == .secret && tcgetattr(fd, &saved) == 0
        if hideEcho {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if hideEcho {
                tcsetattr(fd, TCSAFLUSH, &saved)
                _ = write(fd, "\n", 1)
            }
        }
        guard let base = answer.baseAddress, answer.count > 0 else { return nil }
        var length = 0
        while true {
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            if n <= 0 {
                explicit_bzero(base, answer.count)
                return nil
            }
            if byte == UInt8(ascii: "\n") { return length }
            guard length < answer.count - 1 else {
                explicit_bzero(base, answer.count)
                return nil
            }
            base.storeBytes(of: byte, toByteOffset: length, as: UInt8.self)
            length += 1
        }
    }
}
