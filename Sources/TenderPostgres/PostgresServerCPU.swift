// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
internal import Glibc
import TenderCore

/// The CPU time a PostgreSQL server on this machine has spent, for the bench (`tenderd --bench`): its postmaster's and
/// every child's (the backends, the WAL writer, the checkpointer, autovacuum), the children it already reaped included
/// (their time is the postmaster's `cutime` and `cstime`), read from /proc. Found through a connection's backend process:
/// the connection over a Unix socket (so the server shares this kernel), the backend a `postgres` process whose parent is
/// one too. Values only; ``seconds()`` reads /proc each time (thread-safe, nothing shared).
public struct PostgresServerCPU: Sendable {
    /// The postmaster's process id.
    let postmaster: Int32
    /// Clock ticks a second (/proc's unit).
    let ticks: Double

    /// The server of `location` when it runs on this machine, else why its CPU cannot be read here (a TCP server may be
    /// another machine's; a process that is not PostgreSQL's; /proc unreadable). Connects once, and closes.
    public static func find(_ location: PostgresLocation) -> (cpu: PostgresServerCPU?, reason: String) {
        guard let connection = location.connect() else { return (nil, "cannot connect") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else { return (nil, "cannot connect") }
        guard let host = PQhost(connection).map({ String(cString: $0) }), host.hasPrefix("/") else {
            return (nil, "the server is reached over TCP, perhaps on another machine")
        }
        let backend = PQbackendPID(connection)
        guard backend > 0, let stat = stat(of: backend), stat.name == "postgres" else {
            return (nil, "the connection's backend (pid \(backend)) is not a postgres process of this machine")
        }
        guard let parent = Self.stat(of: stat.parent), parent.name == "postgres" else {
            return (nil, "the backend's parent (pid \(stat.parent)) is not PostgreSQL's postmaster")
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticks > 0 else { return (nil, "no clock tick rate") }
        return (PostgresServerCPU(postmaster: stat.parent, ticks: ticks), "")
    }

    /// The server's CPU time so far, user and system, in seconds: every live child's, the postmaster's own and its reaped
    /// children's. The reaped children's time is read before and after the children: a child reaped between the two would
    /// be counted twice (live, then reaped), so the reading is taken again (at most four times; the last is returned).
    /// nil when the postmaster is gone.
    public func seconds() -> Double? {
        var total: UInt64 = 0
        for _ in 0..<4 {
            guard let before = Self.stat(of: postmaster) else { return nil }
            let live = liveChildrenTicks()
            guard let after = Self.stat(of: postmaster) else { return nil }
            total = live + after.user + after.system + after.children
            if after.children == before.children { break }
        }
        return Double(total) / ticks
    }

    /// The user and system ticks of the postmaster's live children.
    private func liveChildrenTicks() -> UInt64 {
        var total: UInt64 = 0
        guard let directory = opendir("/proc") else { return 0 }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != postmaster, let child = Self.stat(of: pid), child.parent == postmaster else { continue }
            total += child.user + child.system
        }
        return total
    }

    /// /proc/`pid`/stat's command name, parent, user and system ticks and reaped children's ticks (user and system); nil when
    /// unreadable. The name is between the first `(` and the last `)` (it may hold either); the fields after it are numbered
    /// from 3 (state): ppid 4, utime 14, stime 15, cutime 16, cstime 17.
    static func stat(of pid: Int32) -> (name: String, parent: Int32, user: UInt64, system: UInt64, children: UInt64)? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count]
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close else { return nil }
        let name = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count > 14, let parent = Int32(fields[1]), let user = UInt64(fields[11]), let system = UInt64(fields[12]),
            let childUser = UInt64(fields[13]), let childSystem = UInt64(fields[14])
        else { return nil }
        return (name, parent, user, system, childUser + childSystem)
    }
}
