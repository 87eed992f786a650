// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// Who holds a claim on an idempotency key: a process, named by the boot it runs in, its pid and
/// its start time (so a pid used again is another owner). Processes sharing a store share a machine
/// (SQLite's WAL needs it). Nothing is cached across `fork`.
enum ClaimOwner {
    /// This process: `"<boot id>/<pid>/<start time>"`.
    static func current() -> String {
        let pid = getpid()
        return "\(bootID)/\(pid)/\(startTime(of: pid) ?? "0")"
    }

    /// Whether the process `owner` names still runs. A process that cannot be inspected but exists
    /// (another user's) counts as running: that only makes a waiter wait, never asks the host again.
    static func isRunning(_ owner: String) -> Bool {
        let parts = owner.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]), pid > 0 else { return false }
        guard parts[0] == bootID[...] else { return false }
        if let start = startTime(of: pid) { return start[...] == parts[2] }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// The kernel's id of this boot (`/proc/sys/kernel/random/boot_id`).
    private static let bootID: String = {
        let text = read("/proc/sys/kernel/random/boot_id") ?? "unknown"
        return String(text.filter { $0 != "\n" })
    }()

    /// Field 22 of `/proc/PID/stat`, the process's start time in clock ticks since boot; "ended" for a
    /// process that exited and is not reaped yet (a zombie).
    private static func startTime(of pid: Int32) -> String? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name start with the third (state); the start time is the 22nd.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return fields[0] == "Z" || fields[0] == "X" ? "ended" : String(fields[19])
    }

    /// A small text file's contents, or nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
