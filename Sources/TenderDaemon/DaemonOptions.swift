// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderPostgres

/// tenderd's command line: `--socket PATH --state DIR [--policy FILE] [--timeout SECONDS] [--max-clients N]
/// [--max-clients-per-user N] [--store postgresql://...]`, or `--systemd` to take the listening socket systemd passes (LISTEN_FDS).
struct DaemonOptions {
    static let usage = """
        usage: tenderd --state DIR (--socket PATH | --systemd) [--policy FILE] [--timeout SECONDS] [--max-clients N] [--max-clients-per-user N]
                       [--store postgresql://...]
               tenderd --state DIR --store postgresql://... --migrate [--user UID]
               tenderd --state DIR --store postgresql://... --bench [--payments N]
               tenderd --state DIR --store postgresql://... --uid UID (--keys | --enroll-key KID | --revoke-key KID)
          --state DIR        where each client uid's store and keys live (DIR/UID/, 0700)
          --socket PATH      the Unix socket to listen on (created 0666; clients are told apart by SO_PEERCRED)
          --systemd          listen on the socket systemd passes (tenderd.socket)
          --policy FILE      root's policy (default /etc/tender/policy.json; missing there: the defaults)
          --timeout SECONDS  how long a client may take to send a message or answer a prompt (default 120)
          --max-clients N    connections served at once; more are refused (default 256)
          --max-clients-per-user N
                             connections of one uid served at once (default: the policy's maxClientsPerUser, else a
                             quarter of --max-clients; at most --max-clients); more from that uid are refused
          --store postgresql://...
                             keep every ledger, directory, audit and key record in PostgreSQL (docs/scale.md), not in
                             SQLite files under --state (which keeps the signing keys); no password in the URI
          --migrate          move every user's SQLite store in --state into --store (verified before and after, one
                             transaction each; a user with anything there already is left alone), then exit;
                             the state directory must exist (nothing is created)
          --user UID         with --migrate: move only this user's store (an error when DIR/UID holds none)
          --bench            payments/s of the PostgreSQL store in this process (1 and 8 threads of one person, 8 people)
                             against a raw libpq loop on the same server, then exit; run it on a throwaway database
          --payments N       with --bench: payments per row (default 400)
          --keys, --enroll-key KID, --revoke-key KID (with --uid UID)
                             list the person's signing keys (one per machine), enroll another machine's pending key,
                             or revoke one, signing with this machine's key for them, then exit (docs/scale.md)
        """

    var socket: String?
    var systemd = false
    var state = ""
    var policy = RootPolicy.defaultPath
    var policyGiven = false
    var timeoutMilliseconds: Int32 = 120_000
    var maxClients = 256
    /// `--max-clients-per-user`, when given (it wins over the policy's `maxClientsPerUser`).
    var maxClientsPerUser: Int?
    /// `--store`, when given (it wins over the policy's `"store"`).
    var store: PostgresLocation?
    /// `--migrate`: move the SQLite stores in `state` into `store`, then exit.
    var migrate = false
    /// `--bench`: measure the PostgreSQL store in `state`'s key homes, then exit.
    var bench = false
    /// `--payments N` (with `--bench`).
    var benchPayments = 400
    /// `--user UID` (with `--migrate` only): the one user to move.
    var migrateUser: UInt32?
    /// `--keys`, `--enroll-key KID`, `--revoke-key KID` with `--uid UID`: a key per machine (``MachineKeys``), then exit.
    var keyAction: MachineKeys.Action?
    var keyUID: UInt32?

    init(_ arguments: [String]) throws(TenderError) {
        var index = 0
        func value() throws(TenderError) -> String {
            index += 1
            guard index < arguments.count else { throw .invalidArgument("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--socket": socket = try value()
            case "--systemd": systemd = true
            case "--state": state = try value()
            case "--policy":
                policy = try value()
                policyGiven = true
            case "--timeout":
                guard let seconds = Int32(try value()), seconds >= 1, seconds <= 3600 else {
                    throw .invalidArgument("--timeout must be a whole number of seconds from 1 to 3600")
                }
                timeoutMilliseconds = seconds * 1000
            case "--max-clients":
                guard let count = Int(try value()), count >= 1, count <= 4096 else { throw .invalidArgument("--max-clients must be from 1 to 4096") }
                maxClients = count
            case "--max-clients-per-user":
                guard let count = Int(try value()), count >= 1, count <= 4096 else { throw .invalidArgument("--max-clients-per-user must be from 1 to 4096") }
                maxClientsPerUser = count
            case "--store": store = try PostgresLocation(try value())
            case "--migrate": migrate = true
            case "--bench": bench = true
            case "--payments":
                guard let count = Int(try value()), count >= 8, count <= 100_000 else { throw .invalidArgument("--payments must be from 8 to 100000") }
                benchPayments = count
            case "--user":
                let text = try value()
                guard let uid = UInt32(text), String(uid) == text, uid != UInt32.max else {
                    throw .invalidArgument("--user must be a numeric uid (tender migrate --user takes a name)")
                }
                migrateUser = uid
            case "--keys": keyAction = .list
            case "--enroll-key": keyAction = .enroll(try value())
            case "--revoke-key": keyAction = .revoke(try value())
            case "--uid":
                guard let uid = UInt32(try value()) else { throw .invalidArgument("--uid must be a user id") }
                keyUID = uid
            default: throw .invalidArgument("unknown argument \(arguments[index].prefix(64))")
            }
            index += 1
        }
        guard !state.isEmpty, state.hasPrefix("/") else { throw .invalidArgument("--state must be an absolute directory") }
        guard migrate || migrateUser == nil else { throw .invalidArgument("--user goes with --migrate only") }
        guard (keyAction == nil) == (keyUID == nil) else { throw .invalidArgument("--keys, --enroll-key and --revoke-key go with --uid UID") }
        guard migrate || bench || keyAction != nil || (socket != nil) != systemd else { throw .invalidArgument("give one of --socket PATH or --systemd") }
    }
}
