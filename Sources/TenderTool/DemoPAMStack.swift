// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// A throwaway PAM stack for the demo: a service file that loads pam_matrix
/// (from libpam-wrapper) with a password file of its own. It is not the
/// system login; the demo says so when it uses it.
struct DemoPAMStack {
    static let service = "tender-demo"
    static let password = "demo-password"

    let directory: String
    let user: String

    /// Where Debian puts pam_matrix.so.
    static let modulePaths = [
        "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so", "/usr/lib/aarch64-linux-gnu/pam_wrapper/pam_matrix.so",
        "/usr/lib/pam_wrapper/pam_matrix.so",
    ]

    /// The demo stack's directory when `home` is a demo home (it holds pam.d/tender-demo), else nil.
    static func existing(home: String) -> String? {
        let directory = home + "/pam.d"
        var info = stat()
        guard lstat(directory + "/" + service, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return directory
    }

    /// Writes the stack into `home`/pam.d for `user`.
    init(home: String, user: String) throws(TenderError) {
        guard let module = Self.modulePaths.first(where: { access($0, R_OK) == 0 }) else {
            throw .authService("the demo needs pam_matrix.so from libpam-wrapper (make demo installs it)")
        }
        directory = home + "/pam.d"
        self.user = user
        mkdir(directory, 0o700)
        let passdb = directory + "/passdb"
        try Self.write("\(user):\(Self.password):\(Self.service)\n", to: passdb)
        try Self.write(
            "auth required \(module) passdb=\(passdb)\naccount required \(module) passdb=\(passdb)\n",
            to: directory + "/" + Self.service)
    }

    private static func write(_ text: String, to path: String) throws(TenderError) {
        guard let file = fopen(path, "w") else { throw .authService("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }
}

/// The demo's side of the PAM conversation: it prints what PAM asks and types the demo password.
struct DemoConversation: Conversation {
    let printer: DialogPrinter

    func converse(kind: PromptKind, message: String, answer: UnsafeMutableRawBufferPointer) -> Int? {
        switch kind {
        case .secret, .text:
            printer.turn(speaker: "person", "(types the demo password at PAM's prompt \"\(message)\")")
            let bytes = Array(DemoPAMStack.password.utf8)
            guard bytes.count < answer.count else { return nil }
            answer.copyBytes(from: bytes)
            return bytes.count
        case .info, .error:
            printer.detail("pam", message)
            return 0
        }
    }
}
