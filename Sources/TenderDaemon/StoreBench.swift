// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderPostgres
import TenderStore

/// `tenderd --bench`: payments a second of the PostgreSQL store itself (the store's `submit`: the checks, the chain,
/// the signature, the balances, one transaction), in this process, for one person from one and from eight threads, and
/// for eight people at once (the many-homes workload), each against the raw ceiling of the same kind of write
/// transaction through libpq on the same server (``PostgresRawLoop``: what a payment must do in the fewest round trips, and
/// the first yardstick, a lock, an insert and a debit), ratios from the same run, with the store's round trips per payment. No client, no socket:
/// the figure is the store's (make bench-postgres measures whole brokered dialogs besides). Writes its people under
/// uids of 4,000,000,000 and more and leaves them: it refuses a database holding tenderd's schema already (a
/// deployment's), and runs on one of its own (make bench-postgres makes one).
enum StoreBench {
    static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "1000000.00", "currency": "USD"}, "default": true}]}
        """

    /// Runs the three workloads of `payments` payments each; prints the table; throws what the store throws.
    static func run(state: String, location: PostgresLocation, payments: Int, print say: (String) -> Void) throws(TenderError) {
        try PostgresRawLoop.requireBenchDatabase(location)
        let base = UInt32(4_000_000_000) + UInt32.random(in: 0..<1_000_000) * 16
        let pool = PostgresPool(location: location, size: PostgresPool.defaultSize)
        let document = try DirectoryDocument(json: try JSONParser.parse(directory))
        func person(_ index: Int) throws(TenderError) -> SQLiteStore {
            let uid = base + UInt32(index)
            let store = try PostgresStore.open(pool: pool, uid: uid, home: state + "/bench-\(uid)")
            try store.importDirectory(document)
            return store
        }
        let one = Shared(try person(0))
        for index in 0..<10 { _ = try one.store.submit(try payment("warm-\(index)")) }
        var people: [Shared] = []
        for index in 1...8 { people.append(Shared(try person(index))) }
        let total = max(8, payments)
        func rate(threads: Int, _ pay: @escaping @Sendable (Int, Int) throws(TenderError) -> Void) throws(TenderError) -> Double {
            let each = total / threads
            let seconds = try BenchThreads.timed(threads: threads) { (thread) throws(TenderError) in
                for index in 0..<each { try pay(thread, index) }
            }
            return Double(each * threads) / seconds
        }
        let first = Int64(base)
        // Each row: the store's payments a second and round trips per payment, and each raw shape's transactions a second;
        // this process's CPU time (user and system, every thread) per payment of the store and per transaction of the raw payment.
        // And this process's context switches (voluntary and not, every thread) per store payment and per raw payment transaction.
        // And the server's CPU time (its postmaster and every child, reaped ones included) per store payment and per raw payment
        // transaction, when it runs on this machine (``PostgresServerCPU``): nil otherwise.
        let server = PostgresServerCPU.find(location)
        var rows: [(
            label: String, store: Double, trips: Double, old: Double, raw: Double, signed: Double, storeCPU: Double, rawCPU: Double,
            signedCPU: Double, storeSwitches: Double, rawSwitches: Double, storeServer: Double?, rawServer: Double?, signedServer: Double?
        )] = []
        func row(
            _ label: String, threads: Int, _ pay: @escaping @Sendable (Int, Int) throws(TenderError) -> Void,
            person: @escaping @Sendable (Int) -> Int64
        ) throws(TenderError) {
            let count = Double((total / threads) * threads)
            let (trips0, before, serverBefore) = (pool.roundTrips, usage(), server.cpu?.seconds())
            let store = try rate(threads: threads, pay)
            let (trips, after, serverAfter) = (Double(pool.roundTrips - trips0) / count, usage(), server.cpu?.seconds())
            let old = try PostgresRawLoop.transactionsPerSecond(location: location, shape: .lockInsertDebit, threads: threads, total: total, person: person)
            func perPayment(_ from: Double?, _ to: Double?) -> Double? { from.flatMap { from in to.map { ($0 - from) / count } } }
            // A raw loop of `shape`: its transactions a second; this process's CPU and switches and the server's CPU a transaction.
            func measured(_ shape: PostgresRawLoop.Shape) throws(TenderError) -> (rate: Double, cpu: Double, switches: Double, server: Double?) {
                var serverBefore: Double?
                var serverAfter: Double?
                let before = usage()
                let rate = try PostgresRawLoop.transactionsPerSecond(location: location, shape: shape, threads: threads, total: total, person: person) {
                    if $0 { serverBefore = server.cpu?.seconds() } else { serverAfter = server.cpu?.seconds() }
                }
                let after = usage()
                return (rate, (after.cpu - before.cpu) / count, Double(after.switches - before.switches) / count, perPayment(serverBefore, serverAfter))
            }
            let raw = try measured(.payment)
            // The raw payment with its signature (the yardstick since pg40, as SQLite's raw payment rows sign theirs).
            let signed = try measured(.signedPayment)
            rows.append((
                label, store, trips, old, raw.rate, signed.rate, (after.cpu - before.cpu) / count, raw.cpu, signed.cpu,
                Double(after.switches - before.switches) / count, raw.switches, perPayment(serverBefore, serverAfter), raw.server,
                signed.server
            ))
        }
        try row("1 (one person)", threads: 1, { _, index throws(TenderError) in try one.pay("one-\(index)") }) { _ in first }
        try row("8 (one person)", threads: 8, { thread, index throws(TenderError) in try one.pay("eight-\(thread)-\(index)") }) { _ in first }
        let crowd = people
        try row("8 people at once", threads: 8, { thread, index throws(TenderError) in try crowd[thread].pay("many-\(index)") }) { first + 1 + Int64($0) }
        let load = loadAverage()
        say("tenderd --bench: the PostgreSQL store \(location.redacted), \(total) payments per row, load average \(load)")
        say("        submitters   store pay/s   round trips/pay   raw payment tx/s   store/raw   raw signed payment tx/s   store/signed raw"
            + "   raw lock-insert-debit tx/s   store/that   CPU us/pay   raw CPU us/tx   signed raw CPU us/tx   signed raw server CPU us/tx"
            + "   switches/pay   raw switches/tx   server CPU us/pay   raw server CPU us/tx")
        func micro(_ seconds: Double?) -> String { seconds.map { fixed($0 * 1e6, 0) } ?? "-" }
        for row in rows {
            say(pad(row.label, 18) + pad(fixed(row.store, 1), 14) + pad(fixed(row.trips, 2), 18) + pad(fixed(row.raw, 1), 19)
                + pad(fixed(row.store / row.raw, 3), 12) + pad(fixed(row.signed, 1), 26) + pad(fixed(row.store / row.signed, 3), 19)
                + pad(fixed(row.old, 1), 29) + pad(fixed(row.store / row.old, 3), 13)
                + pad(fixed(row.storeCPU * 1e6, 0), 13) + pad(fixed(row.rawCPU * 1e6, 0), 16) + pad(fixed(row.signedCPU * 1e6, 0), 23)
                + pad(micro(row.signedServer), 30) + pad(fixed(row.storeSwitches, 2), 15)
                + pad(fixed(row.rawSwitches, 2), 18) + pad(micro(row.storeServer), 20) + pad(micro(row.rawServer), 23))
        }
        say("raw payment: BEGIN, lock, head, key and funds read (1 round trip); insert, debit, COMMIT (1); "
            + "raw lock-insert-debit: BEGIN+lock, insert, debit, COMMIT (4 round trips); "
            + "CPU and switches: tenderd's own (user and system time; context switches, voluntary and not; every thread) "
            + "per store payment and per raw payment transaction; server CPU: the PostgreSQL server's (its postmaster and every "
            + "child, reaped ones included, from /proc) over the same phases"
            + (server.cpu == nil ? " (not measured: \(server.reason))" : "")
            + "; raw signed payment: the raw payment with an Ed25519 signature a transaction (TenderCrypto), made before BEGIN, "
            + "as SQLite's raw payment rows sign theirs: the issue's yardstick (store/signed raw); store/raw, unsigned, kept beside it")
        // The same figures as one JSON object (the last line), each row's keys named: both yardsticks side by side.
        let figures: [JSONValue] = rows.map { row in
            var members: [(String, JSONValue)] = [
                ("submitters", .string(row.label)), ("store_per_s", number(row.store, 1)), ("round_trips_per_payment", number(row.trips, 2)),
                ("raw_payment_per_s", number(row.raw, 1)), ("ratio_to_raw_payment", number(row.store / row.raw, 3)),
                ("raw_signed_payment_per_s", number(row.signed, 1)), ("ratio_to_raw_signed_payment", number(row.store / row.signed, 3)),
                ("raw_lock_insert_debit_per_s", number(row.old, 1)), ("ratio_to_raw_lock_insert_debit", number(row.store / row.old, 3)),
                ("cpu_us_per_payment", number(row.storeCPU * 1e6, 0)), ("raw_payment_cpu_us_per_tx", number(row.rawCPU * 1e6, 0)),
                ("raw_signed_payment_cpu_us_per_tx", number(row.signedCPU * 1e6, 0)),
            ]
            for (key, value) in [
                ("server_cpu_us_per_payment", row.storeServer), ("raw_payment_server_cpu_us_per_tx", row.rawServer),
                ("raw_signed_payment_server_cpu_us_per_tx", row.signedServer),
            ] {
                members.append((key, value.map { number($0 * 1e6, 0) } ?? .null))
            }
            return .object(members)
        }
        say(JSONWriter.string(.object([("load_average", .string(load)), ("payments_per_row", .number(String(total))), ("rows", .array(figures))])))
    }

    /// `value` with `digits` decimals, a JSON number.
    private static func number(_ value: Double, _ digits: Int) -> JSONValue { .number(fixed(value, digits)) }

    /// A payment of $1 under `key`, its record in format 1 (the signed copy of the columns kept beside it).
    static func payment(_ key: String) throws(TenderError) -> PaymentSubmission {
        let money = try Money(decimal: "1.00", currency: try Currency(code: "USD"))
        let movements = [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)]
        let effects = PaymentEffects(movements: movements, onCompletion: [], bill: nil)
        let columns: JSONValue = .object([
            ("idempotencyKey", .string(key)), ("fingerprint", .string("bench")), ("account", .string("checking")),
            ("payeeContact", .string("tim-cook")), ("payeeHandle", .string("tc-work")), ("currency", .string("USD")),
            ("amountMinor", .number(String(money.minorUnits))), ("effects", effects.json),
        ])
        return PaymentSubmission(
            idempotencyKey: key, fingerprint: "bench", amount: money, movements: movements,
            payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("ledger", columns)])) }
    }

    /// `value` with `digits` decimals.
    private static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = String(scaled / Int64(scale))
        let fraction = String(scaled % Int64(scale))
        return digits == 0 ? whole : whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// This process's CPU time so far, user and system, every thread (seconds), and its context switches, voluntary and
    /// involuntary: one `getrusage` for both.
    private static func usage() -> (cpu: Double, switches: Int) {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return (0, 0) }
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return (cpu, Int(usage.ru_nvcsw + usage.ru_nivcsw))
    }

    /// The first three fields of /proc/loadavg.
    private static func loadAverage() -> String {
        guard let file = fopen("/proc/loadavg", "re") else { return "?" }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return "?" }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// A store shared by the bench's threads (the store is thread-safe).
    final class Shared: @unchecked Sendable {
        let store: SQLiteStore
        init(_ store: SQLiteStore) { self.store = store }

        /// Pays under `key`; throws when it was not paid now.
        func pay(_ key: String) throws(TenderError) {
            guard case .paid = try store.submit(try StoreBench.payment(key)) else { throw .internal("bench payment \(key) was not paid") }
        }
    }
}
