// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderBroker
import TenderCore

/// tenderd: accepts connections on the broker socket and serves each on a
/// thread of its own, at most `maxClients` at once and at most
/// `maxClientsPerUser` of one uid (more are told so and closed), so one user
/// holding connections open cannot keep the others out.
final class Daemon: Sendable {
    let options: DaemonOptions
    let policy: RootPolicy
    let users: ClientUsers
    /// Connections of one uid served at once: the option, else the policy's, else a quarter of `maxClients`
    /// (64 of the default 256), never above `maxClients`.
    let maxClientsPerUser: Int
    private let active = PthreadLocked<(total: Int, byUID: [UInt32: Int])>((0, [:]))

    init(options: DaemonOptions, policy: RootPolicy) {
        self.options = options
        self.policy = policy
        maxClientsPerUser = min(options.maxClientsPerUser ?? policy.maxClientsPerUser ?? max(1, options.maxClients / 4), options.maxClients)
        users = ClientUsers(state: options.state, store: options.store ?? policy.store)
    }

    /// Serves `listener` until the process ends.
    func serve(_ listener: BrokerSocket) -> Never {
        while true {
            guard let client = listener.accept() else { continue }
            // The uid from the kernel (SO_PEERCRED) decides which budget the connection takes.
            guard let uid = try? client.peerUID() else {
                client.close()
                continue
            }
            let refusal = active.withLock { (state) -> String? in
                guard state.total < options.maxClients else { return "tenderd serves \(options.maxClients) clients at once; try again" }
                let mine = state.byUID[uid, default: 0]
                guard mine < maxClientsPerUser else {
                    return "tenderd serves at most \(maxClientsPerUser) connections of one user at once, and uid \(uid) has them; close one or try again"
                }
                state.total += 1
                state.byUID[uid] = mine + 1
                return nil
            }
            if let refusal {
                try? client.send(BrokerMessage(.error, TenderError.storeBusy(refusal).brokerBody), timeoutMilliseconds: 100)
                client.close()
                continue
            }
            let started = DetachedThread.start { [self] in
                ClientSession(socket: client, daemon: self).run()
                // The slot first, then end of file: a client waiting for it (BrokerSocket.finish) may connect again at once.
                release(uid)
                client.close()
            }
            if !started {
                client.close()
                release(uid)
            }
        }
    }

    /// Gives back the slot a connection of `uid` held.
    private func release(_ uid: UInt32) {
        active.withLock { state in
            state.total -= 1
            let left = state.byUID[uid, default: 1] - 1
            state.byUID[uid] = left > 0 ? left : nil
        }
    }
}

/// A detached pthread running one closure.
enum DetachedThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; false when none could be made.
    static func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box.toOpaque())
        if status != 0 { box.release() }
        return status == 0
    }
}
