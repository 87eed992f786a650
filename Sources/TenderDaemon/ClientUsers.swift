// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderPostgres
import TenderStore

/// Every client uid the daemon has served, opened once each. Thread-safe.
final class ClientUsers: Sendable {
    private let state: String
    /// The connections to the PostgreSQL database every person's store is kept in, shared by every person;
    /// nil: SQLite files in `state`.
    private let store: PostgresPool?
    private let users = PthreadLocked<[UInt32: ClientUser]>([:])
    private let clock = SystemClock()

    init(state: String, store: PostgresLocation?) {
        self.state = state
        self.store = store.map { PostgresPool(location: $0) }
    }

    /// The user behind `uid`, opening its store on first use.
    func user(_ uid: UInt32) throws(TenderError) -> ClientUser {
        if let known = users.withLock({ $0[uid] }) { return known }
        // Opened outside the lock: another thread may open the same uid at once; the first one kept wins.
        let opened = try ClientUser(uid: uid, state: state, store: store, clock: clock)
        return users.withLock { map in
            if let known = map[uid] { return known }
            map[uid] = opened
            return opened
        }
    }
}
