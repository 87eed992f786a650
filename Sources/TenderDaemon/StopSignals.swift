// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// tenderd's clean stop: SIGTERM (systemd, kill) and SIGINT (a terminal's ^C)
/// are blocked in every thread and taken by one thread with sigwait(2), which
/// runs the stop action (removing the socket file) in ordinary code, not in a
/// signal handler, then ends the process with status 0. Payments are SQLite
/// transactions: one under way when the process ends is rolled back whole.
enum StopSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread; call it before any other
    /// thread starts, so that they all inherit the mask.
    static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that waits for SIGTERM or SIGINT, runs `stop` with the
    /// signal's number, then exits with status 0. Exits with 1 when no thread
    /// can be started (the process would otherwise ignore SIGTERM).
    static func handle(_ stop: @escaping (Int32) -> Void) {
        let started = DetachedThread.start {
            var set = signals()
            var received: Int32 = 0
            while sigwait(&set, &received) != 0 {}
            stop(received)
            _exit(0)
        }
        if !started { _exit(1) }
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
