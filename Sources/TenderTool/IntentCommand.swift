// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TenderCore
import TenderStore

/// `tender intent`: runs one dialog from a JSON intent on a home, asking the
/// person at each question; one reply per line on standard input.
struct IntentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intent",
        abstract: "Run a dialog from a JSON intent (docs/intents.md; a custom intent's with --intents), one reply per line: an option's label or number, yes/no, or a value.")

    @OptionGroup var home: HomeOption
    @OptionGroup var broker: BrokerOption

    @OptionGroup var custom: CustomIntentOptions

    @Argument(help: "The intent, e.g. '{\"intent\": \"search_for_bills\"}'.")
    var intent: String

    func run() throws {
        let session: any PlayableDialog
        if let client = broker.client {
            guard custom.intents.isEmpty else { throw ValidationError("--intents works on a home, not through --broker: tenderd runs the built-in intents only") }
            session = try BrokeredDialog(client: client, intent: try JSONParser.parse(intent))
        } else {
            let path = try StoreOpener.requiredHome(home)
            let store = try StoreOpener.open(home: path)
            let engine = try StoreOpener.engine(store: store, home: path, customIntents: try StoreOpener.customIntents(custom))
            session = try DialogSession(engine: engine, json: try JSONParser.parse(intent))
        }
        session.conversation = isatty(0) != 0 ? TerminalConversation() : StandardInputConversation()
        let printer = DialogPrinter(verbose: true, echo: false)
        let outcome = try DialogPlayer(observer: printer, today: WallClock.today()).play(session) { readLine() }
        guard outcome?.code == .success else { throw ExitCode(1) }
    }
}
