// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderAuth
import TenderCore
import TenderPostgres
import TenderStore
import TenderWiring

/// One client uid as the daemon serves it: its name (from the passwd
/// database, never from the client), its store and keys in `STATE/UID/`
/// (0700, the daemon's) or its keys there and its store in PostgreSQL (`--store`), and one gate per effective policy, so the reuse
/// window spans that user's connections. Thread-safe.
final class ClientUser: Sendable {
    let uid: UInt32
    let name: String
    let store: SQLiteStore
    private let gates = PthreadLocked<[(policy: AuthenticationPolicy, gate: AuthenticationGate)]>([])
    private let clock: any TenderClock
    /// The reuse budgets, shared through the PostgreSQL store with every tenderd on it; nil on SQLite (each gate's own).
    private let sharedGrants: (any ReuseGrants)?

    init(uid: UInt32, state: String, store pool: PostgresPool?, clock: any TenderClock) throws(TenderError) {
        self.uid = uid
        self.name = try Self.userName(uid)
        self.clock = clock
        let home = state + "/" + String(uid)
        if let pool {
            store = try PostgresStore.open(pool: pool, uid: uid, home: home, clock: clock)
            sharedGrants = pool.reuseGrants(uid: uid)
        } else {
            store = try EngineFactory.openStore(home: home, access: .readWrite(newLedger: false), clock: clock)
            sharedGrants = nil
        }
    }

    /// An engine for one session: root's limits and dialog options, and root's authentication tightened by the client's.
    func engine(root: RootPolicy, client: AuthenticationPolicy?) throws(TenderError) -> Engine {
        let policy = client.map { root.authentication.tightened(by: $0) } ?? root.authentication
        let gate: AuthenticationGate
        if let known = gates.withLock({ list in list.first(where: { $0.policy == policy })?.gate }) {
            gate = known
        } else {
            let authenticator = policy.asksAnything
                ? try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory, user: name) : nil
            // Root's test stack: the first payment it lets through is preceded by a signed testing_mode entry.
            if policy.testing { store.noteTestingMode(service: policy.service, configDirectory: policy.configDirectory) }
            gate = AuthenticationGate(
                policy: policy, authenticator: authenticator, records: store, user: name, clock: clock, sharedGrants: sharedGrants)
            gates.withLock { list in
                if list.count >= 16 { list.removeFirst() }
                list.append((policy, gate))
            }
        }
        let clock = self.clock
        return Engine(directory: store, ledger: store, limits: root.limits, gate: gate, dialog: root.dialog, today: { clock.today() })
    }

    /// The passwd name of `uid`; a uid without one is refused (PAM needs a name).
    static func userName(_ uid: UInt32) throws(TenderError) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            throw .authService("uid \(uid) has no user name; tenderd serves only users in the passwd database")
        }
        return String(cString: name)
    }
}
