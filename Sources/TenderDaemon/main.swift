// SPDX-License-Identifier: Apache-2.0
// tenderd: the Tender broker (docs/broker.md).
internal import Glibc
import TenderBroker
import TenderCore

signal(SIGPIPE, SIG_IGN)
// SIGTERM and SIGINT are taken by one thread (StopSignals) that removes the socket file and exits:
// blocked here, before any other thread starts, so every thread inherits the mask.
StopSignals.block()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(DaemonOptions.usage)
    exit(0)
}
do throws(TenderError) {
    let options = try DaemonOptions(arguments)
    let policy = try RootPolicy.load(path: options.policy, required: options.policyGiven)
    // Clients' files are created 0600 and directories 0700 by the store; nothing is made for others.
    umask(0o077)
    var info = stat()
    if stat(options.state, &info) != 0 {
        // A migration reads what is there: a mistyped state directory is an error, never created empty.
        guard !options.migrate, !options.bench else { throw .home("--migrate, --bench: there is no state directory \(options.state) (nothing was created)") }
        guard mkdir(options.state, 0o700) == 0 else { throw .home("cannot create the state directory \(options.state): errno \(errno)") }
    } else {
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw .home("the state directory \(options.state) must be a directory of tenderd's user with mode 0700")
        }
    }
    if options.bench {
        guard let location = options.store ?? policy.store else { throw .invalidArgument("--bench needs --store (or the policy's \"store\")") }
        try StoreBench.run(state: options.state, location: location, payments: options.benchPayments) { print($0) }
        exit(0)
    }
    if options.migrate {
        guard let location = options.store ?? policy.store else { throw .invalidArgument("--migrate needs --store (or the policy's \"store\")") }
        exit(StoreMigration.run(state: options.state, location: location, only: options.migrateUser, say: say))
    }
    if let action = options.keyAction, let uid = options.keyUID {
        guard let location = options.store ?? policy.store else { throw .invalidArgument("--keys, --enroll-key and --revoke-key need --store") }
        exit(MachineKeys.run(action, uid: uid, state: options.state, location: location, say: say))
    }
    let listener: BrokerSocket
    if let path = options.socket {
        listener = try BrokerSocket.listen(path: path, mode: 0o666)
    } else {
        // systemd passes the socket as descriptor 3 (SD_LISTEN_FDS_START) and says so in LISTEN_PID/LISTEN_FDS.
        guard let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), pid == String(getpid()),
            getenv("LISTEN_FDS").map({ String(cString: $0) }) == "1"
        else { throw .invalidArgument("--systemd: no socket was passed (LISTEN_PID/LISTEN_FDS)") }
        listener = BrokerSocket.adopt(descriptor: 3)
    }
    StopSignals.handle { signal in
        // A clean stop leaves no socket file behind; systemd's socket (--systemd) is systemd's to remove.
        let removed = listener.removeSocketFile()
        say("tenderd: stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")\(removed ? ", removed \(options.socket ?? "")" : "")")
    }
    let daemon = Daemon(options: options, policy: policy)
    let kept = (options.store ?? policy.store).map { "their stores in \($0.redacted), " } ?? ""
    say("tenderd: serving \(options.socket ?? "the systemd socket") for the users in \(options.state) (\(kept)keys there)")
    daemon.serve(listener)
} catch {
    say("tenderd: \(error.message)\n\(DaemonOptions.usage)")
    exit(2)
}

/// Writes `line` to standard error.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
