// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderAuth
import TenderCore
import TenderStore
import TenderWiring

/// `tender demo`: seeds a store with the data of every seed scenario and
/// plays the scenarios turn by turn (send, pay a bill, transfer, balance,
/// bills due, payment history); with --home the store stays to try by hand.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the seed scenarios (send, pay a bill, transfer, balance, bills due, history) on a store with demo data.")

    @OptionGroup var home: HomeOption

    @Flag(help: "Keep the temporary home instead of removing it.")
    var keep = false

    @Flag(help: "Authenticate with your real login (PAM service \"tender\" in /etc/pam.d: make install as root, sudo make install-pam, or the Debian packages), asking on the terminal.")
    var login = false

    @Option(help: ArgumentHelp("A custom intent definition file to play too (repeat; make demo gives examples/intents/expense.json and round-up.json).", valueName: "FILE"))
    var intents: [String] = []


    func run() throws {
        let temporary = home.resolved == nil
        guard let path = home.resolved ?? Environment.makeTemporaryDirectory(prefix: "tender-demo-") else {
            throw ValidationError("cannot create a temporary home")
        }
        defer { if temporary && !keep { Environment.removeTree(path) } }
        try play(home: path, kept: !temporary || keep)
    }

    private func play(home: String, kept: Bool) throws(TenderError) {
        let store = try StoreOpener.open(home: home)
        let today = WallClock.today()
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(DemoDirectory.json(today: today))))
        let printer = DialogPrinter()
        let user = try PAMAuthenticator.processUser()
        var policy = AuthenticationPolicy()
        if !login {
            policy.service = DemoPAMStack.service
            policy.configDirectory = try DemoPAMStack(home: home, user: user).directory
            policy.testing = true
        }
        let service = policy.service
        let host = DemoIntentHost()
        let customIntents: CustomIntentCatalog? = intents.isEmpty ? nil : try EngineFactory.customIntents(intents)
        customIntents?.setHost(host)
        let engine = try StoreOpener.engine(store: store, home: home, policy: policy, customIntents: customIntents)
        printer.banner("Tender demo: the seed scenarios, on the store \(home)/\(SQLiteStore.fileName)")
        printer.line("directory: two Johns, Tim Cook, Craig Federighi, two Phil Schillers; the Electric Company at two addresses;")
        printer.line("           checking, savings, Safe-to-Spend, NestEgg and a travel card; this month's bills")
        if login {
            printer.line("pam: your system login, service \(service): type your password when asked (it is not echoed)")
        } else {
            printer.line("pam: DEMO PAM STACK, service \(DemoPAMStack.service) = pam_matrix with a throwaway password file, not your system login")
        }
        try printBalances(store, printer, when: "before")
        let player = DialogPlayer(observer: printer, today: today)
        let context = ParseContext(directory: store, today: today, customIntents: customIntents?.matcher)
        for scenario in DemoScenario.all(today: today) + (customIntents == nil ? [] : DemoScenario.custom) {
            printer.banner("\n── \(scenario.request)")
            printer.turn(speaker: "person", scenario.request)
            var understood = try scenario.intent.map { (text) throws(TenderError) in try JSONParser.parse(text) }
            if understood == nil { understood = try TextParser.parse(scenario.request, context: context).intent }
            guard let intent = understood else { throw .internal("\(scenario.request): not understood") }
            printer.detail("intent", JSONWriter.string(intent))
            let session = try DialogSession(engine: engine, json: intent)
            session.conversation = login ? TerminalConversation() : DemoConversation(printer: printer)
            var replies = scenario.replies[...]
            let outcome = try player.play(session) { replies.popFirst() }
            guard outcome?.code == .success else {
                throw .internal("\(scenario.request): the dialog did not succeed (\(session.lastDenial?.message ?? "see above"))")
            }
        }
        printer.banner("")
        try printBalances(store, printer, when: "after")
        if customIntents != nil {
            let pot = host.pot.withLock { $0 }
            printer.detail("host's books", "round-up pot: \(pot / 100).\(pot % 100 < 10 ? "0" : "")\(pot % 100) USD (the demo bank moves round-ups itself; Tender signed the record)")
        }
        let report = try store.verify()
        printer.turn(speaker: "tender", "verify → ledger valid: \(report.count) signed record(s), head \(report.headHash)")
        let tool = Self.toolPath()
        if kept {
            printer.banner("\nTry any scenario by hand on this home, answering each question on its own line, e.g.:")
            printer.line("  \(tool) intent --home \(home) '{\"intent\": \"pay_bill\", \"billPayee\": {\"name\": \"Electric Company\"}}'")
            printer.line("  \(tool) ask --home \(home) 'send $50 to John'")
            if !login { printer.line("  (in this demo home tender uses the demo PAM stack, in testing mode; its password is \"\(DemoPAMStack.password)\")") }
        } else {
            if !login { printer.banner("\nThe demo PAM stack's password, typed above for the person, is \"\(DemoPAMStack.password)\".") }
            printer.line("To replay a scenario by hand, keep a demo home and answer each question on its own line:")
            printer.line("  \(tool) demo --home ~/tender-demo\(intents.isEmpty ? "" : intents.map { " --intents \($0)" }.joined())")
            printer.line("  \(tool) ask --home ~/tender-demo 'send $50 to John'\(login ? "" : "      (PAM's password: \(DemoPAMStack.password))")")
        }
    }

    /// How this tool was invoked (build/bin/tender from make demo), for the lines to copy; `tender` when unknown.
    private static func toolPath() -> String {
        guard let first = CommandLine.arguments.first, first.contains("/") else { return "tender" }
        return first
    }

    /// Every account's balance, before or after the scenarios, so the moves can be seen.
    private func printBalances(_ store: SQLiteStore, _ printer: DialogPrinter, when: String) throws(TenderError) {
        for account in try store.accounts() {
            printer.detail("balance \(when)", "\(account.spokenName): \(account.balance.decimalString) \(account.balance.currency.code)")
        }
    }
}
