// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderCrypto

/// `tender verify`: checks every signature and link of the ledger, the columns kept beside each
/// record, and every account's balance re-derived from the ledger.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify the ledger: every signature, hash link, stored column and account balance; exit 1 naming the first bad record.",
        discussion: """
            Read-only. Checks every record's Ed25519 signature and its hash link to the one before; the columns the \
            store keeps beside each record (amount, key, fingerprint, effects, status) against the signed record; \
            and every account's balance and currency, re-derived from the signed balances entries and the ledger, \
            naming any account that disagrees. --checkpoint and --public-key also detect history rewritten with the \
            key. Without --checkpoint, records removed from the end of the ledger (with the balances set back to \
            match) cannot be seen: keep checkpoints outside the home (tender checkpoint, or the configuration's \
            "checkpointPath") and verify against them. The audit log, the directory's contacts, bills and \
            vocabulary, and the authentication throttle are not signed and not checked.
            """)

    @OptionGroup var home: HomeOption
    @OptionGroup var broker: BrokerOption
    @Option(help: ArgumentHelp("A checkpoint saved earlier (tender checkpoint): also detect truncation and rewriting.", valueName: "FILE"))
    var checkpoint: String?
    @Option(name: .customLong("public-key"), help: ArgumentHelp("Trust only this key (PEM or JWK file) and the rotations it signed.", valueName: "FILE"))
    var publicKey: String?
    @Flag(help: "Print the report as JSON.") var json = false

    func run() throws {
        let checkpointText = try checkpoint.map { try TextFile.read($0).trimmingWhitespace() }
        let trusted = try publicKey.map { try TrustedKey.load($0) }
        if let client = broker.client {
            // tenderd verifies the store it keeps, against the caller's checkpoint and key; a broker
            // that does not answer is an error of its own, not an invalid ledger.
            try client.connect().close()
            try report(
                { () throws(TenderError) in try client.verify(checkpoint: checkpointText, trustedKeys: trusted) },
                testingEntries: { () throws(TenderError) in Int64(try client.auditEntries().filter { $0.detail.hasPrefix("testing mode") }.count) },
                finished: {})
            return
        }
        let store = try StoreOpener.openReadOnly(home: try StoreOpener.requiredHome(home))
        // On a terminal (and without --json): a progress bar on standard error, erased when done.
        let bar = ProgressBar("verify", quiet: json)
        let start = Stopwatch.now()
        bar.show(fraction: 0, detail: "reading the ledger", secondsLeft: nil, force: true)
        defer { bar.finish() }
        let progress: LedgerVerifier.Progress? =
            bar.isShown ? { done, total in bar.count(done, of: total, unit: "checks", since: start, force: done == total) } : nil
        try report(
            { () throws(TenderError) in try store.verify(checkpoint: checkpointText, trustedKeys: trusted, progress: progress) },
            testingEntries: { () throws(TenderError) in try store.testingModeAuditCount() }, finished: { bar.finish() })
    }

    /// Prints what `verification` found (after `finished`, which erases a progress bar) and how many
    /// audit entries `testingEntries` counts; exit 1 when invalid.
    private func report(
        _ verification: () throws(TenderError) -> LedgerVerifier.Report, testingEntries: () throws(TenderError) -> Int64,
        finished: () -> Void
    ) throws {
        do throws(TenderError) {
            let report = try verification()
            finished()
            let testing = try testingEntries()
            if json {
                guard case var .object(members) = report.json else { return }
                if testing > 0 { members.append(("testingModeEntries", .number(String(testing)))) }
                print(JSONWriter.string(.object(members)))
            } else {
                print("ledger valid: \(report.count) records, head \(report.headHash), signed by \(report.keyIDs.count) key(s)")
                if !report.resigned.isEmpty {
                    let listed = report.resigned.prefix(20).map(String.init).joined(separator: ", ") + (report.resigned.count > 20 ? ", ..." : "")
                    print("signed again after their commit (their process ended before storing the signature): \(report.resigned.count) record(s): \(listed)")
                }
                if !report.testingMode.isEmpty {
                    let records = report.testingMode.prefix(20).map(String.init).joined(separator: ", ") + (report.testingMode.count > 20 ? ", ..." : "")
                    print("TESTING MODE: the signed ledger records payments let through by engines in testing mode (a PAM stack that is not the system's \"tender\"): \(report.testingMode.count) stack(s), marked at record(s) \(records)")
                }
                if testing > 0 {
                    print("TESTING MODE: \(testing) audit entr\(testing == 1 ? "y" : "ies") of this home came from an engine in testing mode (a PAM stack that is not the system's \"tender\")")
                }
                if !report.unchainedBalances.isEmpty {
                    print("balances signed by a version before chained balances (an older one put back would not be seen until the directory sets them again): \(report.unchainedBalances.joined(separator: ", "))")
                }
                if checkpoint == nil {
                    print("not checked: whether records were removed from the end of the ledger (with the balances set back): verify against a checkpoint kept elsewhere (--checkpoint FILE; tender checkpoint, or the configuration's \"checkpointPath\")")
                }
                print("not signed, not checked: the audit log (authentication, reuse, denials), the authentication throttle and known devices, the contacts, bill payees, bills, vocabulary and settings")
            }
        } catch {
            finished()
            if json {
                print(JSONWriter.string(.object([("valid", .bool(false)), ("error", .string(error.message))])))
            } else {
                printError("tender verify: LEDGER INVALID: \(error.message)")
            }
            throw ExitCode.failure
        }
    }
}
