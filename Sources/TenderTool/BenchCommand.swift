// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore

/// `tender bench`: Tender's rates next to the raw OpenSSL and SQLite limits, measured in one run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure signing, durable commits, payments and verification, with ratios to the raw limits.")

    @Option(help: "Seconds per rate measurement.") var seconds: Double = 2
    @Option(help: "Ledger entries to verify (the ledger is filled up to this many).") var records: Int = 100_000
    @Option(help: "Concurrent submitters.") var threads: Int = 8
    @Option(help: "Homes (one person each) served by this process at once, for the many-homes figures (0: skip them).")
    var homes: Int = 1000
    @Option(help: "Engines open at once, at most, in the many-homes run (opened on demand, least recently used closed first).")
    var openEngines: Int = 100
    @Option(help: ArgumentHelp("Directory for the benchmark stores (default: a temporary one on the same disk as TMPDIR).", valueName: "DIR"))
    var directory: String?
    @Flag(help: "Print the figures as one JSON object.") var json = false

    /// Sequential payments whose log frames are counted (their frames must stay under SQLite's automatic checkpoint).
    static let framePayments = 100
    /// Seconds a turn of the many-homes comparison, each side (the same threads run both, one turn after the other).
    static let homesTurn = 0.1

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard records >= 1, records <= 10_000_000 else { throw ValidationError("--records must be in [1, 10000000]") }
        guard threads >= 1, threads <= 256 else { throw ValidationError("--threads must be in [1, 256]") }
        guard homes >= 0, homes <= 100_000 else { throw ValidationError("--homes must be in [0, 100000]") }
        guard openEngines >= 1, openEngines <= 10_000 else { throw ValidationError("--open-engines must be in [1, 10000]") }
    }

    func run() throws {
        let temporary = directory == nil
        // A directory named but missing is created (as mkdir -p); one that cannot be is named with the reason.
        if let directory, let failure = Environment.makeDirectory(directory) { throw ValidationError("--directory: \(failure)") }
        guard let base = directory ?? Environment.makeTemporaryDirectory(prefix: "tender-bench-") else {
            throw ValidationError("cannot create a temporary directory")
        }
        defer { if temporary { Environment.removeTree(base) } }
        let raw = RawBaselines(seconds: seconds, directory: base)
        let table = BenchTable()
        // On a terminal (and without --json): a progress bar on standard error, erased before the table.
        let progress = BenchProgress(timed: homes > 0 ? 14 : 11, seconds: seconds, quiet: json)
        defer { progress.finish() }

        progress.begin("raw Ed25519 sign")
        let sign = try raw.signRate()
        progress.begin("raw Ed25519 verify")
        let verify = try raw.verifyRate()
        progress.begin("raw SQLite commit")
        let commit = try raw.commitRate()
        progress.begin("raw sign, then commit")
        let signCommit = try raw.signThenCommitRate()
        let cores = Double(Stopwatch.onlineCores)
        table.add("raw_sign_per_s", "OpenSSL Ed25519 sign", sign, unit: "/s")
        table.add("raw_verify_per_s", "OpenSSL Ed25519 verify", verify, unit: "/s")
        table.add("raw_commit_per_s", "SQLite durable single-row commit", commit, unit: "/s")
        table.add("raw_sign_then_commit_per_s", "sign, then commit alone", signCommit, unit: "/s")

        // Tender and the raw loop it is held to run in turns (Stopwatch.interleaved), so both see the same disk.
        let workload = try TenderWorkload(home: base + "/tender")
        progress.begin("payments one at a time, in turns with the raw payment rows")
        var measuredSequential = TenderWorkload.Measured()
        let paymentRows = try raw.signThenCommitPaymentLoop()
        // Turns of about 20 ms: a stall of the shared disk (tens of milliseconds) then falls on either side alike.
        let (rawTurns, sequentialTurns) = try Stopwatch.interleaved(seconds: 2 * seconds, slices: max(5, Int(seconds / 0.02)), paymentRows) {
            try workload.pay(into: &measuredSequential)
        }
        let (signPayment, sequential) = (rawTurns.rate, sequentialTurns.rate)
        table.add(
            "raw_sign_then_commit_payment_per_s", "sign, then commit a payment's rows alone (record, key, balance), in turns with the next row",
            signPayment, unit: "/s")
        table.add("ratio_payment_to_sign_then_commit", "  its ratio to sign-then-commit: the most one at a time can reach", signPayment / signCommit, unit: "x")
        table.add("tender_sequential_per_s", "Tender payments, one at a time", sequential, unit: "/s")
        table.add("ratio_sequential_to_sign_then_commit", "  ratio to sign-then-commit", sequential / signCommit, unit: "x")
        table.add("ratio_sequential_to_payment_rows", "  ratio to sign-then-commit of a payment's rows (target >= 0.9)", sequential / signPayment, unit: "x")
        table.addLatencies("sequential_dialog", "  latency of a whole dialog, one at a time", measuredSequential.dialogs)
        table.addLatencies("sequential_handle", "  latency of its handle", measuredSequential.handles)
        table.addSteps(TenderWorkload.steps, measuredSequential.steps)
        // The budget, from the same run: what the dialog's calls before handle alone leave of the target, and CPU against waiting.
        let beforeHandle = measuredSequential.steps.dropLast().reduce(0) { $0 + $1.percentileMilliseconds(0.5) / 1000 }
        table.add(
            "bound_sequential_if_handle_were_raw", "  its bound if handle cost the raw rows' time: raw / (raw + the steps before handle)",
            (1 / signPayment) / (1 / signPayment + beforeHandle), unit: "x")
        table.add("sequential_cpu_us_per_payment", "  process CPU a sequential payment (every thread's)", sequentialTurns.cpuMicroseconds, unit: "us")
        table.add("raw_payment_rows_cpu_us_per_payment", "  process CPU a payment's raw rows (sign, commit)", rawTurns.cpuMicroseconds, unit: "us")
        table.add("sequential_wait_us_per_payment", "  a sequential payment's time off the CPU (the flush, preemption)", sequentialTurns.waitMicroseconds, unit: "us")
        table.add("raw_payment_rows_wait_us_per_payment", "  a payment's raw rows' time off the CPU", rawTurns.waitMicroseconds, unit: "us")
        // Pages written per payment, counted from the log (not timed): the part of a commit's cost that does not vary with the disk.
        var untimed = TenderWorkload.Measured()
        let frames = Double(try workload.store.logFrames { for _ in 0..<Self.framePayments { try workload.pay(into: &untimed) } })
        let rawFrames = try raw.paymentRowsFrames(count: Self.framePayments)
        table.add("frames_per_sequential_payment", "  log frames (pages) a sequential payment writes, over \(Self.framePayments)", frames / Double(Self.framePayments), unit: "")
        table.add("raw_frames_per_payment", "  log frames a payment's raw rows write", rawFrames, unit: "")
        // A payment the host makes takes a claim first (one more durable commit, and the claim's seal: one more signature).
        progress.begin("payments through a host, one at a time, in turns with the store's")
        let hostEngine = workload.hostEngine()
        var measuredStorePaid = TenderWorkload.Measured()
        var measuredHostPaid = TenderWorkload.Measured()
        let (storeTurns, hostTurns) = try Stopwatch.interleaved(seconds: 2 * seconds, slices: max(5, Int(seconds / 0.02))) {
            try workload.pay(into: &measuredStorePaid)
        } _: {
            try TenderWorkload.pay(on: hostEngine, into: &measuredHostPaid)
        }
        let (storePaid, hostPaid) = (storeTurns.rate, hostTurns.rate)
        table.add("tender_host_sequential_per_s", "Tender payments through a host (claim, send, record), one at a time", hostPaid, unit: "/s")
        table.add("tender_store_paid_beside_host_per_s", "  the store's own payments, in turns with them", storePaid, unit: "/s")
        table.add("ratio_host_to_store_sequential", "  ratio of payments through a host to the store's own", hostPaid / storePaid, unit: "x")
        table.add("ratio_claim_seal_to_host_payment", "  the claim's seal (one Ed25519 sign) as a share of a host payment", hostPaid / sign, unit: "x")
        table.addLatencies("host_dialog", "  latency of a whole dialog through a host", measuredHostPaid.dialogs)
        progress.begin("handle, 1 submitter")
        let measuredHandles = try workload.submissions(threads: 1, seconds: seconds, perThread: 4000)
        let handles = measuredHandles.rate
        table.add("tender_handle_per_s", "  handle alone (sign, durable commit), 1 submitter", handles, unit: "/s")
        table.add("ratio_handle_to_sign_then_commit", "  its ratio to sign-then-commit", handles / signCommit, unit: "x")
        table.addLatencies("handle_alone", "  latency of handle alone, 1 submitter", measuredHandles.handles)

        // N submitters in turns with the raw group commit of N payments' rows, the ceiling's flush.
        progress.begin("handle, \(threads) submitters, in turns with the raw group commit")
        let groupLoop = try raw.paymentBatchCommitLoop(size: threads)
        var measuredSubmissions = TenderWorkload.Measured()
        var grouped = (count: 0, time: 0.0)
        // Each raw flush timed too: its own p99 / p50 is what the disk and the scheduler alone do to a tail.
        var rawGroupCommits = Latencies()
        let slices = 8
        let slice = seconds / Double(slices)
        for turn in 0..<(2 * slices) {
            if turn % 4 == 0 || turn % 4 == 3 {
                let start = Stopwatch.now()
                var commits = 0
                while commits < 1 || Stopwatch.now() - start < slice {
                    try rawGroupCommits.time { try groupLoop() }
                    commits += 1
                }
                grouped.count += commits * threads
                grouped.time += Stopwatch.now() - start
            } else {
                measuredSubmissions.merge(try workload.submissions(threads: threads, seconds: slice, perThread: Int(5000 * slice) + 100))
            }
        }
        let groupCommit = Double(grouped.count) / grouped.time
        table.add("raw_group_commit_per_s", "SQLite: \(threads) payments' rows per durable commit, unsigned, in turns with Tender", groupCommit, unit: "/s")
        table.addLatencies("raw_group_commit", "  latency of one such commit (its p99 / p50: the disk's and the scheduler's share of a tail)", rawGroupCommits)
        // With one submitter per payment of a batch, the next batch starts only after this one's flush:
        // without overlap a payment costs its share of the flush plus its signature, spread over every core.
        let signing = sign * min(cores, Double(threads))
        let ceiling = 1 / (1 / groupCommit + 1 / signing)
        table.add("ceiling_concurrent_per_s", "  ceiling for \(threads) submitters, no overlap: that flush + a signature each on \(Int(cores)) cores", ceiling, unit: "/s")
        table.add("ratio_ceiling_to_commit", "  the ceiling's ratio to single-row commit", ceiling / commit, unit: "x")
        let overlapped = min(groupCommit, signing)
        table.add("ceiling_overlap_per_s", "  ceiling with signing overlapping the flush: the slower of the two", overlapped, unit: "/s")
        let batchSigned = 1 / (1 / groupCommit + 1 / (sign * Double(threads)))
        table.add("ceiling_one_signature_per_flush_per_s", "  ceiling with one signature per flush instead", batchSigned, unit: "/s")
        table.add("ratio_one_signature_ceiling_to_commit", "  its ratio to single-row commit", batchSigned / commit, unit: "x")
        let submissions = measuredSubmissions.rate
        let cpuShare = measuredSubmissions.cpu / measuredSubmissions.elapsed
        table.add("tender_concurrent_submissions_per_s", "Tender submissions (handle), \(threads) submitters", submissions, unit: "/s")
        table.add("ratio_concurrent_to_commit", "  ratio to single-row commit", submissions / commit, unit: "x")
        table.add("ratio_concurrent_to_ceiling", "  ratio to the no-overlap ceiling for \(threads) submitters (target >= 1.0)", submissions / ceiling, unit: "x")
        table.add("ratio_concurrent_to_overlap_ceiling", "  ratio to the ceiling with overlap", submissions / overlapped, unit: "x")
        table.add("concurrent_cpu_cores_busy", "  CPU cores busy while handling (of \(Stopwatch.onlineCores); target >= 1.7)", cpuShare, unit: "x")
        // Per payment, over the same timed handles (every thread of the process: submitters, signing and checkpoint workers).
        let handled = Double(max(1, measuredSubmissions.count))
        table.add("concurrent_cpu_us_per_payment", "  CPU time a payment, every thread", measuredSubmissions.cpu / handled * 1e6, unit: "us")
        table.add(
            "concurrent_switches_per_payment", "  context switches a payment, voluntary and not, every thread",
            Double(measuredSubmissions.voluntarySwitches + measuredSubmissions.involuntarySwitches) / handled, unit: "/pay")
        table.add(
            "concurrent_preemptions_per_payment", "  of which involuntary (a thread preempted)", Double(measuredSubmissions.involuntarySwitches) / handled,
            unit: "/pay")
        table.addLatencies("concurrent_handle_alone", "  latency of handle alone, \(threads) submitters", measuredSubmissions.handles)
        progress.begin("whole dialogs, \(threads) at once")
        let dialogs = try workload.concurrent(threads: threads, seconds: seconds)
        table.add("tender_concurrent_dialogs_per_s", "Tender whole dialogs, \(threads) at once", dialogs.rate, unit: "/s")
        table.addLatencies("concurrent_dialog", "  latency of a whole dialog, \(threads) at once", dialogs.dialogs)
        table.addLatencies("concurrent_handle", "  latency of its handle, \(threads) at once", dialogs.handles)

        // Where the log's checkpoints ran, over every payment above: on the process's workers, or inside a commit (past the bound).
        let checkpoints = workload.store.checkpointCounts
        table.add("checkpoints_background", "log checkpoints run by the workers, off the payments' path (all runs above)", Double(checkpoints.background), unit: "")
        table.add("checkpoints_inline", "  run inside a payment's commit (the log past its bound)", Double(checkpoints.inline), unit: "")

        if homes > 0 { try manyHomes(base: base, table: table, progress: progress) }

        let have = Int(try workload.store.ledgerEntries().count)
        let fillStart = Stopwatch.now()
        if have < records {
            let fill = records - have
            try workload.concurrent(threads: threads, seconds: .infinity, total: fill) { done in
                progress.counted("filling the ledger", done: min(done, fill - 1), total: fill, unit: "payments", start: fillStart)
            }
            progress.counted("filling the ledger", done: fill, total: fill, unit: "payments", start: fillStart)
        }
        let verifyStart = Stopwatch.now()
        let (verified, verifyRate) = try workload.verifyRate(
            progress: progress.bar.isShown
                ? { done, total in progress.counted("verifying", done: done, total: total, unit: "checks", start: verifyStart) } : nil)
        progress.finish()
        table.add("tender_verify_records", "ledger entries verified", Double(verified), unit: "")
        table.add("tender_verify_per_s", "Tender verify", verifyRate, unit: "/s")
        table.add("ratio_verify_to_raw_verify", "  ratio to raw verify (target >= 0.8)", verifyRate / verify, unit: "x")

        print(json ? table.json() : table.text())
    }

    /// Many people at once: `homes` homes, engines opened on demand (at most `openEngines`), `threads`
    /// submitters paying for random people, in turns with the same number of raw files and threads.
    private func manyHomes(base: String, table: BenchTable, progress: BenchProgress) throws {
        let workload = HomesWorkload(base: base + "/homes", count: homes, openAtOnce: openEngines)
        if let failure = Environment.makeDirectory(workload.base) { throw ValidationError(failure) }
        let prepareStart = Stopwatch.now()
        let total = homes
        try workload.prepare(threads: threads) { done in
            progress.counted("making \(total) homes", done: min(done, total - 1), total: total, unit: "homes", start: prepareStart)
        }
        progress.begin("engine opens on existing homes")
        let cost = try workload.openCost(sample: openEngines)
        progress.begin("\(homes) homes, \(threads) submitters, in turns with \(homes) raw files")
        // Turns of 0.1 s (2 x seconds a side): a stall of the shared disk then falls on either side alike.
        let turns = max(4, Int((2 * seconds / Self.homesTurn).rounded()))
        let comparison = try workload.measure(threads: threads, slice: min(Self.homesTurn, 2 * seconds / Double(turns)), turns: turns)
        let (raw, tender) = (comparison.raw, comparison.tender)
        table.add("raw_homes_payments_per_s", "raw: \(homes) files, \(threads) threads, a signed payment's rows per commit, at most \(openEngines) open", raw.rate, unit: "/s")
        table.add("tender_homes_payments_per_s", "Tender whole dialogs over \(homes) homes, \(threads) submitters, at most \(openEngines) engines open", tender.rate, unit: "/s")
        table.add("ratio_homes_to_raw", "  ratio to the raw files (target >= 0.8)", tender.rate / raw.rate, unit: "x")
        for (half, name) in zip(comparison.halves, ["first", "second"]) {
            table.add("ratio_homes_to_raw_\(name)_half", "  the same over the \(name) half of the turns", half.tender.rate / half.raw.rate, unit: "x")
        }
        table.add("homes_cpu_us_per_payment", "  process CPU a many-homes payment (every thread's)", tender.cpuMicroseconds, unit: "us")
        table.add("raw_homes_cpu_us_per_payment", "  process CPU a raw many-homes payment", raw.cpuMicroseconds, unit: "us")
        // Where the CPU alone bounds both sides (a fast disk, or cores taken by others), the ratio tends to this one.
        table.add(
            "ratio_homes_cpu_raw_to_tender", "  raw's CPU a payment / Tender's: the ratio when the CPU alone bounds both",
            tender.cpuMicroseconds > 0 ? raw.cpuMicroseconds / tender.cpuMicroseconds : 0, unit: "x")
        table.addLatencies("homes_payment", "  latency of a payment, engine open included", tender.payments)
        table.addLatencies("raw_homes_payment", "  latency of a raw payment, file open included", raw.payments)
        let opened = Double(tender.opens.seconds.count) / Double(max(1, tender.count))
        table.add("homes_engine_opens_per_payment", "  engines opened per payment", opened, unit: "x")
        table.addLatencies("homes_engine_open", "  engine open on an existing home, under load", tender.opens)
        table.addLatencies("engine_open", "engine open on an existing home, one at a time (target p50 <= 2 ms)", cost.opens)
        table.add("engine_resident_kib", "  resident memory per open engine, \(cost.engines) open (target <= 512)", cost.residentPerEngine / 1024, unit: "KiB")
        table.add("engine_descriptors", "  file descriptors per open engine", cost.descriptorsPerEngine, unit: "fd")
    }
}
