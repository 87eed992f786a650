// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
import TenderCore
@testable import TenderAuth

/// The PAM adapter against real Linux-PAM: a pam_matrix stack through
/// pam_start_confdir (no root needed), and, as root, the system's pam_unix
/// with a throwaway user.
@Suite(.serialized) struct PAMAuthenticatorTests {
    static let pamMatrix: String? = {
        let candidates: [String] = ["/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so", "/usr/lib/aarch64-linux-gnu/pam_wrapper/pam_matrix.so"]
        return candidates.first { path in access(path, R_OK) == 0 }
    }()

    /// A private PAM directory with service `tender-test` on pam_matrix, the password file naming `user`.
    static func matrixStack(user: String, password: String, extra: String = "") -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/tender-pam-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { buffer -> String in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return "/nonexistent" }
            return String(cString: base)
        }
        write("\(user):\(password):tender-test\n", to: dir + "/passdb")
        let module = pamMatrix ?? "pam_matrix.so"
        write("auth required \(module) passdb=\(dir)/passdb \(extra)\naccount required \(module) passdb=\(dir)/passdb\n", to: dir + "/tender-test")
        return dir
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
    }

    /// Records what PAM asked, and answers with `answer` (nil: cancel).
    final class Recorder: Conversation {
        let answer: String?
        var prompts: [(PromptKind, String)] = []
        init(_ answer: String?) { self.answer = answer }

        func converse(kind: PromptKind, message: String, answer buffer: UnsafeMutableRawBufferPointer) -> Int? {
            prompts.append((kind, message))
            guard kind == .secret || kind == .text else { return 0 }
            guard let answer, answer.utf8.count < buffer.count else { return nil }
            let bytes = Array(answer.utf8)
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    @Test(.enabled(if: pamMatrix != nil, "needs pam_matrix.so from libpam-wrapper"))
    func rightWrongEmptyAndCancelled() throws {
        let user = try PAMAuthenticator.processUser()
        let dir = Self.matrixStack(user: user, password: "correct horse")
        let pam = try PAMAuthenticator(service: "tender-test", configDirectory: dir)
        #expect(pam.user == user)
        let right = Recorder("correct horse")
        #expect(pam.authenticate(through: right) == nil)
        #expect(right.prompts.count == 1 && right.prompts[0].0 == .secret)
        #expect(pam.authenticate(through: Recorder("battery staple"))?.name == "wrongCredentials")
        #expect(pam.authenticate(through: Recorder(""))?.name == "wrongCredentials")
        #expect(pam.authenticate(through: Recorder(nil))?.name == "cancelled")
        #expect(pam.authenticate(through: Recorder(String(repeating: "x", count: 600)))?.name == "cancelled")
    }

    @Test(.enabled(if: pamMatrix != nil, "needs pam_matrix.so from libpam-wrapper"))
    func echoedPromptsReachTheHostAsText() throws {
        let user = try PAMAuthenticator.processUser()
        let dir = Self.matrixStack(user: user, password: "pw", extra: "echo verbose")
        let pam = try PAMAuthenticator(service: "tender-test", configDirectory: dir)
        let recorder = Recorder("pw")
        #expect(pam.authenticate(through: recorder) == nil)
        #expect(recorder.prompts.contains { $0.0 == .text })
        // PAM_SILENT keeps modules' informational messages ("verbose") away from the person.
        #expect(!recorder.prompts.contains { $0.0 == .info })
    }

    @Test func aServiceWithoutAFileIsRefused() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        #expect {
            _ = try PAMAuthenticator(service: "no-such-tender-service", configDirectory: base)
        } throws: { error in
            guard case let .authService(message) = error as? TenderError else { return false }
            return message.contains("no-such-tender-service") && message.contains("\"other\"")
        }
        #expect(throws: TenderError.self) { _ = try PAMAuthenticator(service: "no-such-tender-service", configDirectory: nil) }
    }

    @Test func aMissingTenderServiceNamesTheCommandThatInstallsIt() {
        let system = PAMServiceFile.missingMessage(service: "tender", directory: "/etc/pam.d")
        #expect(system.contains("sudo make install-pam") && system.contains("/etc/pam.d"))
        // Elsewhere install-pam would not help: the message does not suggest it.
        #expect(!PAMServiceFile.missingMessage(service: "tender", directory: "/tmp/pam").contains("install-pam"))
        #expect(!PAMServiceFile.missingMessage(service: "other-app", directory: "/etc/pam.d").contains("install-pam"))
    }

    @Test func aUserUnknownToTheStackIsDenied() throws {
        guard Self.pamMatrix != nil else { return }
        let dir = Self.matrixStack(user: "somebody-else", password: "pw")
        let pam = try PAMAuthenticator(service: "tender-test", configDirectory: dir)
        #expect(pam.authenticate(through: Recorder("pw")) != nil)
    }

    /// As root: a throwaway user with a password, through the real pam_unix stack; removed even on failure.
    @Test(.enabled(if: geteuid() == 0, "runs only as root: creates a throwaway user"))
    func realPamUnixWithAThrowawayUser() throws {
        let user = "tender-test-\(getpid())"
        guard system("useradd --no-create-home --shell /usr/sbin/nologin \(user) >/dev/null 2>&1") == 0 else {
            Issue.record("useradd failed")
            return
        }
        defer { _ = system("userdel \(user) >/dev/null 2>&1") }
        #expect(system("echo '\(user):Unix-pass-123' | chpasswd") == 0)
        let dir = Self.matrixStack(user: "unused", password: "unused")
        Self.write("auth required pam_unix.so\naccount required pam_unix.so\n", to: dir + "/tender-unix")
        let pam = try PAMAuthenticator(service: "tender-unix", configDirectory: dir, user: user)
        #expect(pam.authenticate(through: Recorder("Unix-pass-123")) == nil)
        #expect(pam.authenticate(through: Recorder("wrong-pass"))?.name == "wrongCredentials")
        #expect(pam.authenticate(through: Recorder(""))?.name == "wrongCredentials")
    }
}
