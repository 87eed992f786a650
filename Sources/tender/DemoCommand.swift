import ArgumentParser
import TenderAuth
import TenderCore
import TenderStore

/// `tender demo`: plays the seeds' send-payment dialog, turn by turn, on a
/// fresh store with the demo directory.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play a send-payment dialog (\"Send $50 to John\") on a store with demo data.")

    @OptionGroup var home: HomeOption

    @Flag(help: "Keep the temporary home instead of removing it.")
    var keep = false

    @Flag(help: "Authenticate with your real login (PAM service \"tender\", installed by make install), asking on the terminal.")
    var login = false

    @Option(name: .customLong("pam-service"), help: ArgumentHelp("With --login: the PAM service.", valueName: "NAME"))
    var pamService = "tender"

    @Option(name: .customLong("pam-config-dir"), help: ArgumentHelp("With --login: a PAM configuration directory of your own.", valueName: "DIR"))
    var pamConfigDirectory: String?

    /// The person's side of the dialog: what they ask, then what they say at each question.
    static let request = "Send $50 to John"
    static let intent = #"{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}"#
    static let replies = ["John Baily", "mobile"]

    func run() throws {
        let temporary = home.resolved == nil
        guard let path = home.resolved ?? Environment.makeTemporaryDirectory(prefix: "tender-demo-") else {
            throw ValidationError("cannot create a temporary home")
        }
        defer { if temporary && !keep { Environment.removeTree(path) } }
        try play(home: path)
    }

    private func play(home: String) throws(TenderError) {
        let store = try StoreOpener.open(home: home)
        try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(DemoDirectory.json)))
        let printer = DialogPrinter()
        var policy = AuthenticationPolicy()
        let user = try PAMAuthenticator.processUser()
        if login {
            policy.service = pamService
            policy.configDirectory = pamConfigDirectory
        } else {
            let pam = try DemoPAMStack(home: home, user: user)
            policy.service = DemoPAMStack.service
            policy.configDirectory = pam.directory
        }
        let authenticator = try PAMAuthenticator(service: policy.service, configDirectory: policy.configDirectory)
        let engine = Engine(
            directory: store, ledger: store, gate: AuthenticationGate(policy: policy, authenticator: authenticator, records: store))
        printer.banner("Tender demo: send payment, on the store \(home)/\(SQLiteStore.fileName)")
        printer.line("directory: the seeds' contacts (two Johns, Tim Cook, Craig Federighi, Phil Schiller) and a checking account")

        printer.turn(speaker: "person", DemoCommand.request)
        printer.detail("intent", DemoCommand.intent)
        let session = try SendPaymentSession(engine: engine, json: try JSONParser.parse(DemoCommand.intent))
        session.conversation = login ? TerminalConversation() : DemoConversation(printer: printer)
        var replies = DemoCommand.replies[...]
        while true {
            let results = try session.resolve()
            printer.resolution(results)
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            guard case let .disambiguation(_, options) = open.result, let reply = replies.popFirst(),
                let option = options.first(where: { $0.label.lowercased() == reply.lowercased() })
            else {
                throw .internal("the demo script has no reply for \(open.parameter) (\(open.result.name))")
            }
            printer.turn(speaker: "person", reply)
            let answer = Answer(parameter: open.parameter, kind: .choose(option.id))
            printer.detail("answer", "choose \(option.id)")
            try session.answer(answer)
        }
        let (confirmCode, response) = try session.confirm()
        printer.turn(speaker: "tender", "confirm → \(confirmCode.name)")
        printer.detail("response", JSONWriter.string(response))
        guard confirmCode == .ready else { throw .internal("confirm did not answer ready") }
        printer.turn(speaker: "tender", "handle: sending money is restricted, so PAM re-authenticates \(user) first")
        if login {
            printer.detail("pam", "your system login, service \(policy.service): type your password (it is not echoed)")
        } else {
            printer.detail("pam", "DEMO PAM STACK: service \(DemoPAMStack.service) = pam_matrix with a throwaway password file, not your system login")
        }
        let (handleCode, record) = try session.handle()
        printer.turn(speaker: "tender", "handle → \(handleCode.name)")
        if let record {
            printer.detail("record", record.json)
            printer.detail("jws", record.jws)
        }
        for account in try store.accounts() {
            printer.detail("balance", "\(account.nickname ?? account.id): \(account.balance.decimalString) \(account.balance.currency.code)")
        }
        guard handleCode == .success else {
            throw .internal("handle answered \(handleCode.name): \(session.lastDenial?.message ?? "no detail")")
        }
        let report = try store.verify()
        printer.turn(speaker: "tender", "verify → ledger valid: \(report.count) signed record(s), head \(report.headHash)")
    }
}
