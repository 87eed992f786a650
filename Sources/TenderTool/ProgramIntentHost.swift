// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// The custom intents' host of `tender ask` and `tender intent --handler PROGRAM`: runs PROGRAM
/// (no shell) once per call, writes the call as one JSON object to its standard input and reads
/// its answer from its standard output: `{"call": "handle", "request": {...}}` → `{"code", "values"}`,
/// `{"call": "values", "intent", "parameter"}` → `{"values": [...]}`. A program that cannot start,
/// exits non-zero or answers no JSON is ``TenderError/callback(_:)``.
struct ProgramIntentHost: CustomIntentHost {
    let program: String

    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
        try run(.object([("call", .string("handle")), ("request", request)]))
    }

    func values(intent: String, parameter: String) throws(TenderError) -> [String] {
        try HostValueList.names(try run(.object([("call", .string("values")), ("intent", .string(intent)), ("parameter", .string(parameter))])))
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
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { for arg in argv { free(arg) } }
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1]); close(output[0])
            throw .callback("the handler \(program) cannot start: errno \(spawned)")
        }
        let text = JSONWriter.string(call) + "\n"
        // A handler that exits without reading its input must not kill the tool.
        signal(SIGPIPE, SIG_IGN)
        _ = text.withCString { write(input[1], $0, strlen($0)) }
        close(input[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            guard bytes.count <= JSONInput.maxBytes else { break }
        }
        close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw .callback("the handler \(program) failed (wait status \(status))") }
        do {
            return try JSONInput.parse(bytes)
        } catch {
            throw .callback("the handler \(program) answered something that is not JSON: \(error.message)")
        }
    }
}
