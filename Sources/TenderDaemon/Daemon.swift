// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderBroker
import TenderCore

/// tenderd: accepts connections on the broker socket and serves each on a
/// thread of its own, at most `maxClients` at once (more are told so and closed).
final class Daemon: Sendable {
    let options: DaemonOptions
    let policy: RootPolicy
    let users: ClientUsers
    private let active = PthreadLocked(0)

    init(options: DaemonOptions, policy: RootPolicy) {
        self.options = options
        self.policy = policy
        users = ClientUsers(state: options.state)
    }

    /// Serves `listener` until the process ends.
    func serve(_ listener: BrokerSocket) -> Never {
        while true {
            guard let client = listener.accept() else { continue }
            let admitted = active.withLock { (count) -> Bool in
                guard count < options.maxClients else { return false }
                count += 1
                return true
            }
            guard admitted else {
                try? client.send(BrokerMessage(.error, TenderError.storeBusy("tenderd serves \(options.maxClients) clients at once; try again").brokerBody), timeoutMilliseconds: 100)
                client.close()
                continue
            }
            let started = DetachedThread.start { [self] in
                ClientSession(socket: client, daemon: self).run()
                active.withLock { $0 -= 1 }
            }
            if !started {
                client.close()
                active.withLock { $0 -= 1 }
            }
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
