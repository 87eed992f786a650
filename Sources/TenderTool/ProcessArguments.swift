// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// The arguments the process was started with, read from /proc/self/cmdline.
///
/// Swift's `CommandLine.arguments` on Linux finds argv by walking back from `environ`
/// on the initial stack. A preloaded library whose constructor adds an environment
/// variable moves `environ` to the heap first, and the arguments come back empty:
/// libpam_wrapper.so does exactly that (it sets PAM_WRAPPER_RUNTIME_DIR when
/// PAM_WRAPPER_SERVICE_DIR is given), and `tender ask ...` then printed the top-level
/// help and exited 0. The kernel's copy does not depend on `environ`.
enum ProcessArguments {
    /// argv without the program name; nil when neither source has any argument at all.
    static func current() -> [String]? {
        if let words = procCmdline(), !words.isEmpty { return Array(words.dropFirst()) }
        let fallback = CommandLine.arguments
        return fallback.isEmpty ? nil : Array(fallback.dropFirst())
    }

    /// The NUL-separated words of /proc/self/cmdline, or nil when it cannot be read.
    private static func procCmdline() -> [String]? {
        guard let file = fopen("/proc/self/cmdline", "re") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { return nil }
        if bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
