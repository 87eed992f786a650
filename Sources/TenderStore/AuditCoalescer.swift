// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Bounds the audit rows repeated denials make. Denials that cost no
/// password attempt (`throttled`, and `denied` for a cancel, a missing
/// conversation or a broken PAM stack) are coalesced; a wrong password or an
/// unavailable account keeps a row of its own (each is a PAM attempt, which
/// the throttle bounds). The first such entry of a kind (same user, event,
/// intent, and detail but for its numbers, such as "retry in 7 s") is written at once; the same entry
/// again within ``windowMilliseconds`` of it is only counted. When the window
/// has passed, one summary row says how many there were and until when, so a
/// client hammering a throttled user makes at most two rows a minute for each
/// kind instead of one flushed row per attempt. Counts of a window still open
/// are in memory: a crash loses them (never the first row). Thread-safe.
final class AuditCoalescer: Sendable {
    /// How long after a run's first row the same denial is counted into it.
    static let windowMilliseconds: Int64 = 60_000
    /// The most runs kept at once; a new kind beyond that closes the oldest run first.
    static let maxRuns = 256

    private struct Run {
        let first: AuditRow
        let startedAt: Int64
        var lastAt: Int64
        var repeats = 0
    }

    private let runs = PthreadLocked<[String: Run]>([:])

    /// Whether `row` is a denial that starts or joins a run: a throttled attempt, or a denial that asked PAM
    /// nothing it could count (not wrongCredentials or accountUnavailable, the gate's detail after any testing-mode prefix).
    static func coalesces(_ row: AuditRow) -> Bool {
        if row.event == AuditEvent.throttled.rawValue { return true }
        guard row.event == AuditEvent.denied.rawValue else { return false }
        var detail = Substring(row.detail)
        if detail.hasPrefix("testing mode ("), let end = detail.firstRange(of: "): ") { detail = detail[end.upperBound...] }
        return !detail.hasPrefix("wrongCredentials:") && !detail.hasPrefix("accountUnavailable:")
    }

    /// Admits a denial at monotonic time `now`: true when it must be written (it starts a run),
    /// false when it was counted into the open run of its kind. `closed` gets the summary rows
    /// of runs this closes (its own kind's ended window, or the oldest run when there are too many).
    func admit(_ row: AuditRow, now: Int64, closed: inout [AuditRow]) -> Bool {
        let key = Self.key(row)
        return runs.withLock { runs in
            if var run = runs[key] {
                if now - run.startedAt < Self.windowMilliseconds {
                    run.repeats += 1
                    run.lastAt = row.at
                    runs[key] = run
                    return false
                }
                if let summary = Self.summary(run) { closed.append(summary) }
                runs[key] = nil
            }
            if runs.count >= Self.maxRuns, let oldest = runs.min(by: { $0.value.startedAt < $1.value.startedAt }) {
                if let summary = Self.summary(oldest.value) { closed.append(summary) }
                runs[oldest.key] = nil
            }
            runs[key] = Run(first: row, startedAt: now, lastAt: row.at)
            return true
        }
    }

    /// The summary rows of the runs whose window has passed at monotonic time `now` (of every run when
    /// `all`), forgetting them.
    func close(now: Int64, all: Bool) -> [AuditRow] {
        runs.withLock { runs in
            var rows: [AuditRow] = []
            for (key, run) in runs where all || now - run.startedAt >= Self.windowMilliseconds {
                if let summary = Self.summary(run) { rows.append(summary) }
                runs[key] = nil
            }
            return rows.sorted { $0.at < $1.at }
        }
    }

    /// One row for the repeats of `run` (none when there were none), dated at the last one; its detail
    /// starts as the first row's does (so a testing-mode run still says so).
    private static func summary(_ run: Run) -> AuditRow? {
        guard run.repeats > 0 else { return nil }
        let seconds = windowMilliseconds / 1000
        return AuditRow(
            at: run.lastAt, user: run.first.user, event: run.first.event, intent: run.first.intent,
            detail: "\(run.first.detail) [repeated \(run.repeats) more time(s) within \(seconds) s of the entry at \(run.first.at) ms; counted in this one row]")
    }

    /// What makes two denials the same kind: user, event, intent and the detail with its numbers blanked.
    private static func key(_ row: AuditRow) -> String {
        var detail = ""
        var inNumber = false
        for scalar in row.detail.unicodeScalars {
            let digit = scalar.value >= 0x30 && scalar.value <= 0x39
            if digit {
                if !inNumber { detail.append("#") }
            } else {
                detail.unicodeScalars.append(scalar)
            }
            inNumber = digit
        }
        return [row.user, row.event, row.intent, detail].joined(separator: "\u{0}")
    }
}
