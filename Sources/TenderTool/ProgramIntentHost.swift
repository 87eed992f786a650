// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// The custom intents' host of `tender ask` and `tender intent --handler PROGRAM`: runs PROGRAM
/// (no shell, in a process group of its own) once per call, writes the call as one JSON object to
/// its standard input and reads its answer from its standard output: `{"call": "handle", "request":
/// {...}}` → `{"code", "values"}`, `{"call": "values", "intent", "parameter"}` → `{"values": [...]}`.
/// A program that cannot start, exits non-zero or answers no JSON is ``TenderError/callback(_:)``;
/// so is one that has not answered, closed its standard output and exited within `timeoutSeconds`
/// (its process group is then killed).
struct ProgramIntentHost: CustomIntentHost {
    /// The default of `--handler-timeout`, in seconds.
    static let defaultTimeoutSeconds = 30

    let program: String
    /// How long one call may take, from the start to the exit, in seconds.
    var timeoutSeconds = Self.defaultTimeoutSeconds

    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
        try run(.object([("call", .string("handle")), ("request", request)]))
    }

    func values(intent: String, parameter: String) throws(TenderError) -> [String] {
        try HostValueList.names(try run(.object([("call", .string("values")), ("intent", .string(intent)), ("parameter", .string(parameter))])))
    }

    /// Milliseconds on the monotonic clock.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    private func run(_ call: JSONValue) throws(TenderError) -> JSONValue {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw .callback("cannot make a pipe for the handler: errno \(errno)") }
        guard pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw .callback("cannot make a pipe for the handler: errno \(errno)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        // A group of its own: a timeout stops the handler and whatever it started that holds the pipe.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { for arg in argv { free(arg) } }
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1]); close(output[0])
            throw .callback("the handler \(program) cannot start: errno \(spawned)")
        }
        let deadline = Self.now() + Int64(timeoutSeconds) * 1000
        var status: Int32 = 0
        let answered = exchange(JSONWriter.string(call) + "\n", input: input[1], output: output[0], pid: pid, status: &status, deadline: deadline)
        guard let bytes = answered else {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw .callback(
                "the handler \(program) gave no answer within \(timeoutSeconds) s and was stopped: a handler must answer, close its standard output and exit (--handler-timeout sets the limit)")
        }
        guard status == 0 else { throw .callback("the handler \(program) failed (wait status \(status))") }
        do {
            return try JSONInput.parse(bytes)
        } catch {
            throw .callback("the handler \(program) answered something that is not JSON: \(error.message)")
        }
    }

    /// Writes `text` to `input`, reads `output` to its end and waits for `pid`, all before `deadline`;
    /// closes both descriptors. The answer's bytes, or nil when the deadline passed first.
    private func exchange(_ text: String, input: Int32, output: Int32, pid: pid_t, status: inout Int32, deadline: Int64) -> [UInt8]? {
        // A handler that exits without reading its input must not kill the tool.
        signal(SIGPIPE, SIG_IGN)
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        var pending = Array(text.utf8)[...]
        var writing = true
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var reading = true
        defer {
            if writing { close(input) }
            close(output)
        }
        while reading {
            let left = deadline - Self.now()
            guard left > 0 else { return nil }
            var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            if writing { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 1000)))
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            if writing, fds.count > 1, fds[1].revents != 0 {
                let count = pending.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
                if count > 0 { pending = pending.dropFirst(count) }
                if pending.isEmpty || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(input)
                    writing = false
                }
            }
            if fds[0].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 { reading = false } else { bytes += chunk[0..<count] }
                if bytes.count > JSONInput.maxBytes { reading = false }
            }
        }
        // Its output closed: it has until the deadline to exit.
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return bytes }
            if done < 0 && errno != EINTR { return bytes }
            guard Self.now() < deadline else { return nil }
            usleep(10_000)
        }
    }
}
