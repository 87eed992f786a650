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

    /// The same engine with a host that moves the money (``PayingHost``): each payment takes a claim on its key
    /// (sealed by the signing key, flushed) before the host is asked, then records the payment.
    func hostEngine() -> Engine {
        var dialog = DialogOptions()
        dialog.requireAgreement = engine.requiresAgreement
        dialog.maxPrompts = engine.maxPrompts
        dialog.transferFees = engine.transferFees
        dialog.language = engine.language
        return Engine(
            directory: engine.directory, ledger: engine.ledger, limits: engine.limits, gate: engine.gate, dialog: dialog,
            appVocabulary: engine.appVocabulary, backend: PayingHost(), customIntents: engine.customIntents, today: engine.today)
    }

    private static let intent = try? JSONParser.parse(
        #"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"1.00","currency":"USD"}}"#)

    /// Payments measured: how many a second, how long each whole dialog took and how long its handle alone took.
    struct Measured {
        var rate = 0.0
        var dialogs = Latencies()
        var handles = Latencies()
        /// Each session call of the whole dialogs: `DialogSession` init, resolve, confirm, agree, handle (``steps``).
        var steps = [Latencies](repeating: Latencies(), count: TenderWorkload.steps.count)
        /// Payments made and the seconds they took (the timed part only).
        var count = 0
        var elapsed = 0.0
        /// Process CPU seconds used in those seconds.
        var cpu = 0.0
        /// The process's context switches in those seconds: voluntary (waits) and involuntary (preemptions).
        var voluntarySwitches = 0
        var involuntarySwitches = 0

        /// Adds another run's payments, time and latencies; the rate becomes the combined one.
        mutating func merge(_ other: Measured) {
            count += other.count
            elapsed += other.elapsed
            cpu += other.cpu
            voluntarySwitches += other.voluntarySwitches
            involuntarySwitches += other.involuntarySwitches
            dialogs.merge(other.dialogs)
            handles.merge(other.handles)
            for (index, step) in other.steps.enumerated() { steps[index].merge(step) }
            rate = elapsed > 0 ? Double(count) / elapsed : 0
        }
    }

    /// One whole payment through the dialog; throws unless it succeeded. Adds its durations to `measured`.
    func pay(into measured: inout Measured) throws { try Self.pay(on: engine, into: &measured) }

    /// One whole payment through the dialog on `engine`; throws unless it succeeded. Adds its durations to `measured`.
    static func pay(on engine: Engine, into measured: inout Measured) throws {
        guard let intent = Self.intent else { throw TenderError.internal("bench intent") }
        let start = Stopwatch.now()
        let session = try measured.steps[0].time { try DialogSession(engine: engine, json: intent) }
        guard try measured.steps[1].time({ try session.resolve() }).allSatisfy({ $0.result.isResolved }),
            try measured.steps[2].time({ try session.confirm() }).code == .ready
        else {
            throw TenderError.internal("a benchmark payment was not ready")
        }
        try measured.steps[3].time { try session.agree(true) }  // the person says yes to the confirmation question
        let outcome = try measured.steps[4].time { try session.handle() }
        measured.handles.add(measured.steps[4].seconds.last ?? 0)
        guard outcome.code == .success else { throw TenderError.internal("a benchmark payment did not succeed") }
        measured.dialogs.add(Stopwatch.now() - start)
    }

    /// The session calls of a dialog, in order, as the step rows name them (`step_NAME_p50_us`).
    static let steps = ["init", "resolve", "confirm", "agree", "handle"]

    /// Payments one after another, for about `seconds`.
    func sequential(seconds: Double) throws -> Measured {
        var measured = Measured()
        measured.rate = try Stopwatch.rate(seconds: seconds) { try pay(into: &measured) }
        return measured
    }

    /// Payments with `threads` submitters at once, each a whole dialog, for about `seconds` (or until `total` payments).
    /// `progress`, when given, is told the payments made so far, from one submitter thread.
    @discardableResult
    func concurrent(threads: Int, seconds: Double, total: Int? = nil, progress: ((Int) -> Void)? = nil) throws -> Measured {
        let done = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let merged = Mutex(Measured())
        let start = Stopwatch.now()
        try Threads.run(threads) { index in
            var own = Measured()
            defer { merged.withLock { $0.dialogs.merge(own.dialogs); $0.handles.merge(own.handles) } }
            while true {
                if let total, done.load(ordering: .relaxed) >= total { break }
                if total == nil && Stopwatch.now() - start >= seconds { break }
                do {
                    try pay(into: &own)
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
        var measured = merged.withLock { $0 }
        measured.rate = Double(done.load(ordering: .relaxed)) / elapsed
        return measured
    }

    /// Submissions (handle: authenticate, sign, durable commit) with `threads`
    /// submitters at once, each handling sessions it resolved and confirmed
    /// beforehand, for about `seconds`: the rate and each handle's duration.
    func submissions(threads: Int, seconds: Double, perThread: Int) throws -> Measured {
        guard let intent = Self.intent else { throw TenderError.internal("bench intent") }
        let ready = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let startBox = Atomic<Int>(0)
        let usageAtStart = Mutex((cpu: 0.0, voluntary: 0, involuntary: 0))
        let merged = Mutex(Latencies())
        let engine = self.engine
        try Threads.run(threads) { _ in
            var own = Latencies()
            defer { merged.withLock { $0.merge(own) } }
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
            if startBox.compareExchange(expected: 0, desired: Int(Stopwatch.now() * 1e6), ordering: .sequentiallyConsistent).exchanged {
                usageAtStart.withLock { $0 = Stopwatch.processUsage() }
            }
            let start = Double(startBox.load(ordering: .sequentiallyConsistent)) / 1e6
            for session in sessions {
                if Stopwatch.now() - start >= seconds { break }
                do {
                    guard try own.time({ try session.handle() }).code == .success else { throw TenderError.internal("not paid") }
                    done.add(1, ordering: .relaxed)
                } catch {
                    failures.add(1, ordering: .relaxed)
                    break
                }
            }
        }
        let elapsed = Stopwatch.now() - Double(startBox.load(ordering: .sequentiallyConsistent)) / 1e6
        let (usage, before) = (Stopwatch.processUsage(), usageAtStart.withLock { $0 })
        guard failures.load(ordering: .relaxed) == 0 else { throw TenderError.internal("concurrent benchmark submissions failed") }
        let count = done.load(ordering: .relaxed)
        return Measured(
            rate: Double(count) / elapsed, handles: merged.withLock { $0 }, count: count, elapsed: elapsed, cpu: usage.cpu - before.cpu,
            voluntarySwitches: usage.voluntary - before.voluntary, involuntarySwitches: usage.involuntary - before.involuntary)
    }

    /// Ledger entries verified per second, over the whole ledger; returns (entries, rate).
    func verifyRate(progress: LedgerVerifier.Progress? = nil) throws -> (Int64, Double) {
        let start = Stopwatch.now()
        let report = try store.verify(progress: progress)
        return (report.count, Double(report.count) / (Stopwatch.now() - start))
    }
}
