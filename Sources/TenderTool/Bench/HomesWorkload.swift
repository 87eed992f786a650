// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TenderCore
import TenderStore
import TenderWiring

/// Many people served by one process: `count` homes under `base`, one person each, whose
/// engines are opened on demand, at most `openAtOnce` at a time (``BoundedPool``); submitters
/// pay whole dialogs, each for a person picked at random. Its raw ceiling is the same number of
/// independent SQLite files (WAL, synchronous=FULL), each payment a signature and a commit of a
/// payment's rows on one of them, held open the same bounded way, by the same number of threads.
struct HomesWorkload {
    let base: String
    let count: Int
    let openAtOnce: Int

    /// A home's directory: `base/home-INDEX`.
    func home(_ index: Int) -> String { base + "/home-\(index)" }

    /// The raw ceiling's file for `index`: `base/raw-INDEX.sqlite3`.
    func rawFile(_ index: Int) -> String { base + "/raw-\(index).sqlite3" }

    private static var policy: AuthenticationPolicy {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []  // asks nothing: every payment is still audited
        return policy
    }

    /// Opens the engine of home `index` as the library does (``EngineFactory``), creating the home when missing.
    func engine(_ index: Int) throws -> Engine {
        try EngineFactory.assemble(EngineConfiguration(home: home(index), authentication: Self.policy)).engine
    }

    /// Makes every home and raw file that is missing, on `threads` threads: a home gets its key, its
    /// store and the bench's directory; a raw file its tables. `progress` is told how many are done.
    func prepare(threads: Int, progress: @escaping (Int) -> Void) throws {
        let next = Atomic<Int>(0)
        let failure = Mutex<String?>(nil)
        let directory = try DirectoryDocument(json: try JSONParser.parse(TenderWorkload.directory))
        try Threads.run(threads) { thread in
            while true {
                let index = next.add(1, ordering: .relaxed).newValue - 1
                guard index < count, failure.withLock({ $0 == nil }) else { return }
                do {
                    let assembled = try EngineFactory.assemble(EngineConfiguration(home: home(index), authentication: Self.policy))
                    if try assembled.engine.directory.accounts().isEmpty { try assembled.directoryAdmin.importDirectory(directory) }
                    _ = try RawPaymentDatabase(path: rawFile(index), fresh: false)
                } catch {
                    failure.withLock { $0 = "home \(index): \(error)" }
                    return
                }
                if thread == 0 { progress(min(count, next.load(ordering: .relaxed))) }
            }
        }
        if let message = failure.withLock({ $0 }) { throw TenderError.internal("preparing the homes failed: \(message)") }
    }

    /// The cost of opening an engine on an existing home, and what each one open holds: opens up to
    /// `sample` homes one after another (each timed, all kept open), then lets them all go.
    struct OpenCost {
        var opens = Latencies()
        var residentPerEngine = 0.0
        var descriptorsPerEngine = 0.0
        var engines = 0
    }

    func openCost(sample: Int) throws -> OpenCost {
        var cost = OpenCost()
        let engines = min(sample, count)
        // One engine opened and let go first, so the code and the libraries' first-use memory are not counted.
        _ = try engine(0)
        let before = ProcessFootprint.now()
        var open: [Engine] = []
        for index in 0..<engines { open.append(try cost.opens.time { try engine(index) }) }
        let after = ProcessFootprint.now()
        cost.engines = engines
        cost.residentPerEngine = Double(after.residentBytes - before.residentBytes) / Double(max(1, engines))
        cost.descriptorsPerEngine = Double(after.descriptors - before.descriptors) / Double(max(1, engines))
        open.removeAll()
        return cost
    }

    /// What one side of the comparison measured: payments, seconds, the process's CPU seconds in them, latencies, engine opens.
    struct Measured {
        var count = 0
        var elapsed = 0.0
        var cpu = 0.0
        var payments = Latencies()
        var opens = Latencies()
        var rate: Double { elapsed > 0 ? Double(count) / elapsed : 0 }
        /// The process's CPU microseconds a payment (every thread's).
        var cpuMicroseconds: Double { count > 0 ? cpu / Double(count) * 1e6 : 0 }

        mutating func merge(_ other: Measured) {
            count += other.count
            elapsed += other.elapsed
            cpu += other.cpu
            payments.merge(other.payments)
            opens.merge(other.opens)
        }
    }

    /// Both sides of the comparison, over all their timed turns and over each half of them (the halves' ratios
    /// agree when the run was steady).
    struct Comparison {
        var raw = Measured()
        var tender = Measured()
        var halves = [(raw: Measured(), tender: Measured()), (raw: Measured(), tender: Measured())]
    }

    /// The home a thread's `step`-th payment of either side is for: a hash of (seed, thread, step), so both sides
    /// walk the same homes in the same order on each thread (the same opens, the same least recently used).
    func pick(seed: UInt64, thread: Int, step: Int) -> Int {
        var z = seed &+ UInt64(thread) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(step) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(max(1, count)))
    }

    /// Tender and its raw ceiling on the same `threads` threads, made once, in turns of about `slice` seconds each,
    /// `turns` a side, alternating raw, Tender, Tender, raw, ... so both meet the same disk and the same scheduling. A
    /// barrier starts and ends every turn: a turn's time runs from its start to its last payment's end, and the
    /// process's CPU is read at both ends. Before the timed turns, every home and every raw file is paid on once, and
    /// each side runs `warmups` turns untimed, so every first open of the run is behind them and each bounded set is
    /// full. Each thread's k-th payment of either side is for the same home (``pick(seed:thread:step:)``).
    func measure(threads: Int, slice: Double, turns: Int, warmups: Int = 2) throws -> Comparison {
        let engines = BoundedPool<Engine>(capacity: openAtOnce) { index in try engine(index) }
        let files = BoundedPool<RawPaymentDatabase>(capacity: openAtOnce) { index in try RawPaymentDatabase(path: rawFile(index), fresh: false) }
        defer {
            engines.removeAll()
            files.removeAll()
        }
        let keys = try (0..<threads).map { _ in try RawKey() }
        var random = SystemRandomNumberGenerator()
        let seed = random.next()
        let total = 2 * (warmups + turns)
        // Turn t: raw when t % 4 is 0 or 3; the first 2 × warmups are untimed.
        func isRaw(_ turn: Int) -> Bool { turn % 4 == 0 || turn % 4 == 3 }
        let barrier = TurnBarrier(count: threads)
        let deadline = Mutex(0.0)
        let timings = Mutex([(elapsed: Double, cpu: Double)](repeating: (0, 0), count: total))
        let perTurn = Mutex([Measured](repeating: Measured(), count: total))
        let failure = Mutex<String?>(nil)
        try Threads.run(threads) { thread in
            var steps = (raw: 0, tender: 0)
            var signature = [UInt8](repeating: 0, count: 64)
            var started = (wall: 0.0, cpu: 0.0)
            // A payment of either side: a signed payment's rows on a raw file, a whole dialog on an engine.
            func payRaw(on file: RawPaymentDatabase) throws {
                try keys[thread].sign(RawBaselines.message, into: &signature)
                try file.pay([RawBaselines.message + signature])
            }
            func payTender(on engine: Engine) throws {
                var ignored = TenderWorkload.Measured()
                try TenderWorkload.pay(on: engine, into: &ignored)
            }
            // Every file of either side paid once first, untimed: a file's first open in the process costs more than its later
            // ones (the raw side's CPU a payment fell by a quarter over a run as more of its files had been opened before).
            var index = thread
            while index < count, failure.withLock({ $0 == nil }) {
                do {
                    try payRaw(on: files.value(index))
                    try payTender(on: engines.value(index))
                } catch {
                    failure.withLock { $0 = $0 ?? "\(error)" }
                }
                index += threads
            }
            for turn in 0..<total {
                barrier.wait()  // every thread has ended the previous turn
                if thread == 0 {
                    let now = (wall: Stopwatch.now(), cpu: Stopwatch.processCPU())
                    if turn > 0 { timings.withLock { $0[turn - 1] = (now.wall - started.wall, now.cpu - started.cpu) } }
                    started = now
                    deadline.withLock { $0 = now.wall + slice }
                }
                barrier.wait()  // the turn's deadline is set
                let end = deadline.withLock { $0 }
                var own = Measured()
                while failure.withLock({ $0 == nil }) && (own.count == 0 || Stopwatch.now() < end) {
                    let began = Stopwatch.now()
                    do {
                        if isRaw(turn) {
                            let file = try files.value(pick(seed: seed, thread: thread, step: steps.raw)) { own.opens.add($0) }
                            steps.raw += 1
                            try payRaw(on: file)
                        } else {
                            let engine = try engines.value(pick(seed: seed, thread: thread, step: steps.tender)) { own.opens.add($0) }
                            steps.tender += 1
                            try payTender(on: engine)
                        }
                    } catch {
                        failure.withLock { $0 = $0 ?? "\(error)" }
                        break
                    }
                    own.payments.add(Stopwatch.now() - began)
                    own.count += 1
                }
                perTurn.withLock { $0[turn].merge(own) }
            }
            barrier.wait()
            if thread == 0 {
                let now = (wall: Stopwatch.now(), cpu: Stopwatch.processCPU())
                timings.withLock { $0[total - 1] = (now.wall - started.wall, now.cpu - started.cpu) }
            }
        }
        if let message = failure.withLock({ $0 }) { throw TenderError.internal("a many-homes payment failed: \(message)") }
        var comparison = Comparison()
        let measured = perTurn.withLock { $0 }
        let times = timings.withLock { $0 }
        for turn in (2 * warmups)..<total {
            var side = measured[turn]
            side.elapsed = times[turn].elapsed
            side.cpu = times[turn].cpu
            let half = turn - 2 * warmups < turns ? 0 : 1
            if isRaw(turn) {
                comparison.raw.merge(side)
                comparison.halves[half].raw.merge(side)
            } else {
                comparison.tender.merge(side)
                comparison.halves[half].tender.merge(side)
            }
        }
        return comparison
    }
}
