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
        Threads.run(threads) { thread in
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

    /// What one side of the comparison measured: payments, seconds, latencies, engine opens.
    struct Measured {
        var count = 0
        var elapsed = 0.0
        var payments = Latencies()
        var opens = Latencies()
        var rate: Double { elapsed > 0 ? Double(count) / elapsed : 0 }

        mutating func merge(_ other: Measured) {
            count += other.count
            elapsed += other.elapsed
            payments.merge(other.payments)
            opens.merge(other.opens)
        }
    }

    /// Runs `pay(thread, index)` on `threads` threads for about `seconds`, each payment for a random home.
    private func run(threads: Int, seconds: Double, _ pay: @escaping (Int, Int, inout Measured) throws -> Void) throws -> Measured {
        let merged = Mutex(Measured())
        let failure = Mutex<String?>(nil)
        let start = Stopwatch.now()
        Threads.run(threads) { thread in
            var own = Measured()
            var random = SystemRandomNumberGenerator()
            while Stopwatch.now() - start < seconds || own.count == 0 {
                let index = Int.random(in: 0..<count, using: &random)
                let began = Stopwatch.now()
                do {
                    try pay(thread, index, &own)
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                own.payments.add(Stopwatch.now() - began)
                own.count += 1
            }
            merged.withLock { $0.merge(own) }
        }
        if let message = failure.withLock({ $0 }) { throw TenderError.internal("a many-homes payment failed: \(message)") }
        var measured = merged.withLock { $0 }
        measured.elapsed = Stopwatch.now() - start
        return measured
    }

    /// Tender and its raw ceiling, `threads` submitters each, in `turns` turns of about `seconds / turns`
    /// each (alternating, so both meet the same disk): (raw, tender).
    func measure(threads: Int, seconds: Double, turns: Int) throws -> (raw: Measured, tender: Measured) {
        let engines = BoundedPool<Engine>(capacity: openAtOnce) { index in try engine(index) }
        let files = BoundedPool<RawPaymentDatabase>(capacity: openAtOnce) { index in try RawPaymentDatabase(path: rawFile(index), fresh: false) }
        defer {
            engines.removeAll()
            files.removeAll()
        }
        let keys = try (0..<threads).map { _ in try RawKey() }
        var raw = Measured()
        var tender = Measured()
        let slice = seconds / Double(turns)
        for turn in 0..<(2 * turns) {
            if turn % 4 == 0 || turn % 4 == 3 {
                raw.merge(try run(threads: threads, seconds: slice) { thread, index, measured in
                    let file = try files.value(index) { measured.opens.add($0) }
                    var signature = [UInt8](repeating: 0, count: 64)
                    try keys[thread].sign(RawBaselines.message, into: &signature)
                    try file.pay([RawBaselines.message + signature])
                })
            } else {
                tender.merge(try run(threads: threads, seconds: slice) { _, index, measured in
                    let engine = try engines.value(index) { measured.opens.add($0) }
                    var ignored = TenderWorkload.Measured()
                    try TenderWorkload.pay(on: engine, into: &ignored)
                })
            }
        }
        return (raw, tender)
    }
}
