// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TenderCore
import TenderStore
import TenderWiring

/// Tender's own rates on a real store: whole payments (resolve, confirm,
/// handle, sign, durable commit) and whole-ledger verification.
struct TenderWorkload {
    let store: SQLiteStore
    let engine: Engine

    static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                       "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "900000000000.00", "currency": "USD"}, "default": true}]}
        """

    init(home: String) throws {
        store = try StoreOpener.open(home: home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory)))
        // Assembled as the library assembles an engine, with a policy that asks nothing (every payment is audited).
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        engine = try EngineFactory.assemble(EngineConfiguration(home: home, authentication: policy), store: store).engine
    }

    private static let intent = try? JSONParser.parse(
        #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"1.00","currency":"USD"}}"#)

    /// One whole payment through the dialog; throws unless it succeeded.
    func pay() throws {
        guard let intent = Self.intent else { throw TenderError.internal("bench intent") }
        let session = try DialogSession(engine: engine, json: intent)
        guard try session.resolve().allSatisfy({ $0.result.isResolved }), try session.confirm().code == .ready else {
            throw TenderError.internal("a benchmark payment was not ready")
        }
        try session.agree(true)  // the person says yes to the confirmation question
        guard try session.handle().code == .success else { throw TenderError.internal("a benchmark payment did not succeed") }
    }

    /// Payments per second, one after another, for about `seconds`.
    func sequentialRate(seconds: Double) throws -> Double {
        try Stopwatch.rate(seconds: seconds) { try pay() }
    }

    /// Payments per second with `threads` submitters at once, for about `seconds` (or until `total` payments).
    /// `progress`, when given, is told the payments made so far, from one submitter thread.
    func concurrentRate(threads: Int, seconds: Double, total: Int? = nil, progress: ((Int) -> Void)? = nil) throws -> Double {
        let done = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let start = Stopwatch.now()
        Threads.run(threads) { index in
            while true {
                if let total, done.load(ordering: .relaxed) >= total { break }
                if total == nil && Stopwatch.now() - start >= seconds { break }
                do {
                    try pay()
                    done.add(1, ordering: .relaxed)
                    if index == 0, let progress { progress(done.load(ordering: .relaxed)) }
                } catch {
                    failures.add(1, ordering: .relaxed)
                    break
                }
            }
        }
        let elapsed = Stopwatch.now() - start
        guard failures.load(ordering: .relaxed) == 0 else { throw TenderError.internal("concurrent benchmark payments failed") }
        return Double(done.load(ordering: .relaxed)) / elapsed
    }

    /// Submissions (handle: authenticate, sign, durable commit) per second with
    /// `threads` submitters at once, each handling sessions it resolved and
    /// confirmed beforehand, for about `seconds`.
    func submissionRate(threads: Int, seconds: Double, perThread: Int) throws -> Double {
        guard let intent = Self.intent else { throw TenderError.internal("bench intent") }
        let ready = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let startBox = Atomic<Int>(0)
        let engine = self.engine
        Threads.run(threads) { _ in
            var sessions: [DialogSession] = []
            do {
                for _ in 0..<perThread {
                    let session = try DialogSession(engine: engine, json: intent)
                    guard try session.confirm().code == .ready else { throw TenderError.internal("not ready") }
                    try session.agree(true)  // the person says yes before the timed handles
                    sessions.append(session)
                }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
            ready.add(1, ordering: .sequentiallyConsistent)
            while ready.load(ordering: .sequentiallyConsistent) < threads {}
            _ = startBox.compareExchange(expected: 0, desired: Int(Stopwatch.now() * 1e6), ordering: .sequentiallyConsistent)
            let start = Double(startBox.load(ordering: .sequentiallyConsistent)) / 1e6
            for session in sessions {
                if Stopwatch.now() - start >= seconds { break }
                do {
                    guard try session.handle().code == .success else { throw TenderError.internal("not paid") }
                    done.add(1, ordering: .relaxed)
                } catch {
                    failures.add(1, ordering: .relaxed)
                    break
                }
            }
        }
        let elapsed = Stopwatch.now() - Double(startBox.load(ordering: .sequentiallyConsistent)) / 1e6
        guard failures.load(ordering: .relaxed) == 0 else { throw TenderError.internal("concurrent benchmark submissions failed") }
        return Double(done.load(ordering: .relaxed)) / elapsed
    }

    /// Ledger entries verified per second, over the whole ledger; returns (entries, rate).
    func verifyRate(progress: LedgerVerifier.Progress? = nil) throws -> (Int64, Double) {
        let start = Stopwatch.now()
        let report = try store.verify(progress: progress)
        return (report.count, Double(report.count) / (Stopwatch.now() - start))
    }
}
