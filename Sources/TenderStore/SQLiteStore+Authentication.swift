// SPDX-License-Identifier: Apache-2.0
import TenderCore

extension SQLiteStore: AuthenticationRecords {
    public func reserveAttempt(user: String, throttle: ThrottlePolicy) throws(TenderError) -> Int64 {
        try write { (db) throws(TenderError) -> Int64 in
            let (failures, next) = try Self.throttleState(user, db)
            let now = clock.nowMilliseconds()
            let (wait, overflow) = next.subtractingReportingOverflow(now)
            if overflow ? next > 0 : wait > 0 { return overflow ? Int64.max / 1000 : wait / 1000 + (wait % 1000 == 0 ? 0 : 1) }
            try Self.setThrottle(user, failures: failures + 1, now: now, throttle: throttle, db)
            return 0
        }
    }

    public func settleAttempt(user: String, outcome: AttemptOutcome, throttle: ThrottlePolicy) throws(TenderError) {
        try write { (db) throws(TenderError) in
            switch outcome {
            case .succeeded:
                try db.statement("DELETE FROM auth_throttle WHERE \"user\" = ?", [user]).run()
            case .failed:
                break
            case .notCounted:
                let (failures, _) = try Self.throttleState(user, db)
                try Self.setThrottle(user, failures: max(0, failures - 1), now: clock.nowMilliseconds(), throttle: throttle, db)
            }
        }
    }

    /// The consecutive failures counted for `user` and when the next attempt is allowed.
    private static func throttleState(_ user: String, _ db: any StoreDatabase) throws(TenderError) -> (Int, Int64) {
        let row = try db.statement("SELECT failures, next_allowed_ms FROM auth_throttle WHERE \"user\" = ?", [user])
        guard try row.step() else { return (0, 0) }
        let state = (Int(clamping: max(0, row.int64(0))), row.int64(1))
        _ = try row.step()
        return state
    }

    /// Stores `failures`, allowing the next attempt after the throttle's delay for that many.
    private static func setThrottle(_ user: String, failures: Int, now: Int64, throttle: ThrottlePolicy, _ db: any StoreDatabase) throws(TenderError) {
        let next = now + throttle.delay(afterFailures: min(failures, 1_000_000)) * 1000
        try db.statement(
            """
            INSERT INTO auth_throttle ("user", failures, next_allowed_ms) VALUES (?, ?, ?)
            ON CONFLICT ("user") DO UPDATE SET failures = excluded.failures, next_allowed_ms = excluded.next_allowed_ms
            """, [user, failures, next]
        ).run()
    }

    /// An entry that lets a payment go ahead (`notRequired`, `reused`,
    /// `authenticated`) is kept in memory and written by the store's next
    /// write transaction: normally the one that commits that payment, so
    /// no payment is durable without its entry, and the entry costs no flush
    /// of its own. A crash before then loses it with the payment not made.
    /// `denied` and `throttled` entries are committed and flushed at once,
    /// except that the same denial again within a minute of the first is only
    /// counted, into one summary row written once that minute has passed
    /// (``AuditCoalescer``): repeated denials cannot grow the table or cost a
    /// flush each.
    public func audit(user: String, event: AuditEvent, intent: String, detail: String) throws(TenderError) {
        let now = clock.monotonicMilliseconds()
        let allows = event == .notRequired || event == .reused || event == .authenticated
        let testing = allows && testingMode.withLock { $0.map { !$0.marked } ?? false }
        let row = AuditRow(at: clock.nowMilliseconds(), user: user, event: event.rawValue, intent: intent, detail: detail, testing: testing)
        if allows, !isReadOnly {
            let closed = deniedRuns.close(now: now, all: false)
            pendingAudit.withLock { $0 += closed + [row] }
            return
        }
        var closed: [AuditRow] = []
        if AuditCoalescer.coalesces(row), !deniedRuns.admit(row, now: now, closed: &closed) { return }
        closed += deniedRuns.close(now: now, all: false)
        try write { (db) throws(TenderError) in
            for summary in closed { try Self.insert(summary, db) }
            try Self.insert(row, db)
        }
    }

    /// Queues the summary rows of repeated denials whose minute has passed, for the next write.
    private func queueClosedDenials() {
        let closed = deniedRuns.close(now: clock.monotonicMilliseconds(), all: false)
        if !closed.isEmpty { pendingAudit.withLock { $0 += closed } }
    }

    /// Writes, inside the caller's write transaction, the audit entries kept
    /// in memory; returns how many (to forget once the transaction commits),
    /// and whether this store's testing mode is marked now: the first entry an
    /// engine in testing mode keeps for a payment it lets through is preceded by
    /// a signed ``TestingModeMark`` (one per PAM stack and ledger), which no SQL
    /// edit removes unseen.
    func storePendingAudit(_ db: any StoreDatabase) throws(TenderError) -> (count: Int, marked: Bool) {
        let rows = pendingAudit.withLock { $0 }
        var marked = false
        if rows.contains(where: \.testing), let stack = testingMode.withLock({ $0 }), !stack.marked {
            if try !Self.hasTestingMark(stack.service, stack.configDirectory, db) {
                let mark = try append(type: TestingModeMark.entryType, db) { position in
                    TestingModeMark.payload(at: position, service: stack.service, configDirectory: stack.configDirectory)
                }
                try db.statement(
                    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [Self.testingMarkSetting(stack.service, stack.configDirectory), String(mark.sequence)]
                ).run()
            }
            marked = true
        }
        for row in rows { try Self.insert(row, db) }
        return (rows.count, marked)
    }

    /// The settings row naming the sequence of the ledger's mark for this PAM stack.
    private static func testingMarkSetting(_ service: String, _ configDirectory: String?) -> String {
        "testingModeMark " + JSONWriter.string(.array([.string(service), configDirectory.map(JSONValue.string) ?? .null]))
    }

    /// Whether the ledger holds a ``TestingModeMark`` for this PAM stack already: the entry the settings row
    /// names, read back and compared (a row pointing anywhere else is ignored and a new mark written).
    private static func hasTestingMark(_ service: String, _ configDirectory: String?, _ db: any StoreDatabase) throws(TenderError) -> Bool {
        let setting = try db.statement("SELECT value FROM settings WHERE key = ?", [testingMarkSetting(service, configDirectory)])
        guard try setting.step(), let sequence = setting.text(0).flatMap({ Int64($0) }) else { return false }
        _ = try setting.step()
        let row = try db.statement("SELECT jws FROM ledger WHERE sequence = ? AND type = ?", [sequence, TestingModeMark.entryType])
        guard try row.step(), let jws = row.text(0) else { return false }
        _ = try row.step()
        guard let parsed = try? CompactJWS(parsing: jws), let payload = try? JSONParser.parse(parsed.payload) else { return false }
        return payload["service"]?.stringValue == service && payload["configDirectory"]?.stringValue == configDirectory
    }

    /// Tells the store that the engine on it runs in testing mode with the PAM
    /// `service` (in `configDirectory` when given): before the first payment such
    /// an engine lets through, the store appends a signed ``TestingModeMark``
    /// unless the ledger holds one for that stack already. Thread-safe.
    public func noteTestingMode(service: String, configDirectory: String?) {
        testingMode.withLock { $0 = (service, configDirectory, false) }
    }

    private static func insert(_ row: AuditRow, _ db: any StoreDatabase) throws(TenderError) {
        try db.statement(
            "INSERT INTO audit (at_ms, \"user\", event, intent, detail) VALUES (?, ?, ?, ?, ?)", [row.at, row.user, row.event, row.intent, row.detail]
        ).run()
    }

    public func hasPaid(party: String) throws(TenderError) -> Bool {
        try read { (db) throws(TenderError) -> Bool in
            let row = try db.statement("SELECT 1 FROM paid_parties WHERE party = ?", [party])
            let found = try row.step()
            if found { _ = try row.step() }
            return found
        }
    }

    public func isKnownDevice(_ device: String, remember: Bool) throws(TenderError) -> Bool {
        if remember {
            return try write { (db) throws(TenderError) -> Bool in
                try db.statement(
                    "INSERT INTO known_devices (device, first_seen_ms) VALUES (?, ?) ON CONFLICT (device) DO NOTHING",
                    [device, clock.nowMilliseconds()]
                ).run()
                return true
            }
        }
        return try read { (db) throws(TenderError) -> Bool in
            let row = try db.statement("SELECT 1 FROM known_devices WHERE device = ?", [device])
            let found = try row.step()
            if found { _ = try row.step() }
            return found
        }
    }

    /// Every audit entry, oldest first.
    public func auditEntries() throws(TenderError) -> [AuditEntry] {
        if !isReadOnly { queueClosedDenials() }
        if !pendingAudit.withLock({ $0.isEmpty }) { try write(lazy: true) { _ in } }
        return try read(scan: true) { (db) throws(TenderError) in
            try db.statement("SELECT id, at_ms, \"user\", event, intent, detail FROM audit ORDER BY id").rows {
                AuditEntry(
                    id: $0.int64(0), atMilliseconds: $0.int64(1), user: $0.text(2) ?? "", event: $0.text(3) ?? "",
                    intent: $0.text(4) ?? "", detail: $0.text(5) ?? "")
            }
        }
    }
}

extension SQLiteStore {
    /// How many audit entries came from an engine in testing mode (`"testing": true`).
    public func testingModeAuditCount() throws(TenderError) -> Int64 {
        if !isReadOnly { queueClosedDenials() }
        if !pendingAudit.withLock({ $0.isEmpty }) { try write(lazy: true) { _ in } }
        return try read(scan: true) { (db) throws(TenderError) -> Int64 in
            let row = try db.statement("SELECT count(*) FROM audit WHERE detail LIKE 'testing mode%'")
            _ = try row.step()
            let count = row.int64(0)
            _ = try row.step()
            return count
        }
    }
}

/// An audit entry waiting in memory for the store's next write transaction.
struct AuditRow: Sendable {
    let at: Int64
    let user: String
    let event: String
    let intent: String
    let detail: String
    /// Whether an engine in testing mode let a payment through (a ``TestingModeMark`` must precede it).
    var testing = false
}
