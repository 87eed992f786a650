// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TenderCore
import TenderStore

/// `tender ask "utterance"`: the whole dialog from text, as a conversation:
/// understanding, each question, confirmation, authentication and handling,
/// said in the person's language with the library's sentences only (`say`);
/// --verbose adds the state behind each turn (resolve, confirm, the record).
/// On a terminal it asks in words (the password without echo); otherwise it
/// reads one reply per line from standard input, the password included, as
/// `sudo -S` does, and shows each reply after "> ". With --json every turn is
/// one JSON object per line (docs/understanding.md).
struct AskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Run the whole dialog from a request in words (more texts: the recogniser's alternatives).",
        discussion: """
            Exit status: 0 handled successfully, 1 the dialog ended in a failure code, 2 the request is out of scope, 3 an error.
            """)

    @OptionGroup var home: HomeOption
    @OptionGroup var broker: BrokerOption

    @Flag(help: "Write every turn as one JSON object per line.") var json = false
    @Flag(help: "Show the state behind each turn (resolution, confirm response, the record) besides the sentences.") var verbose = false

    @OptionGroup var custom: CustomIntentOptions

    @Argument(help: "The request, e.g. \"send $50 to John\"; more texts are alternatives, best first.") var texts: [String]

    func run() throws {
        guard !texts.isEmpty else { throw ValidationError("say a request") }
        let turns = JSONTurns()
        let status: Int32
        do throws(TenderError) {
            status = try converse(turns)
        } catch {
            if json { turns.failed(error) } else { printError(error.message) }
            status = 3
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func printError(_ message: String) {
        _ = "tender: \(message)\n".withCString { write(2, $0, strlen($0)) }
    }

    /// Plays the dialog; answers the exit status (0 success, 1 a failure code, 2 out of scope).
    private func converse(_ turns: JSONTurns) throws(TenderError) -> Int32 {
        let client = broker.client
        var store: SQLiteStore?
        let directory: any Directory & DirectoryAdmin
        if let client {
            directory = client
        } else {
            guard let path = home.resolved else { throw .home("set --home DIR or TENDER_HOME (or --broker SOCKET)") }
            let opened = try StoreOpener.open(home: path)
            store = opened
            directory = opened
        }
        let today = WallClock.today()
        let customIntents = try StoreOpener.customIntents(custom)
        guard customIntents == nil || client == nil else {
            throw .invalidArgument("--intents works on a home, not through --broker: tenderd runs the built-in intents only")
        }
        // Understanding runs here, on the directory the daemon keeps when brokered.
        let context = ParseContext(directory: directory, shortcuts: try directory.shortcuts(), today: today, customIntents: customIntents?.matcher)
        let understood = texts.count == 1
            ? try TextParser.parse(texts[0], context: context) : try TextParser.parse(alternatives: texts.map { ($0, nil) }, context: context)
        let printer = DialogPrinter(verbose: verbose, echo: isatty(0) == 0)
        if json { turns.understood(understood) } else if verbose { printer.turn(speaker: "tender", "understood: \(understood.intentName)") }
        guard let intent = understood.sessionIntent else {
            if !json { printer.say(understood.outOfScopeSay) }
            return 2
        }
        let session: any PlayableDialog
        if let client {
            session = try BrokeredDialog(client: client, intent: intent)
        } else if let store, let path = home.resolved {
            session = try DialogSession(engine: try StoreOpener.engine(store: store, home: path, customIntents: customIntents, today: { today }), json: intent)
        } else {
            throw .home("set --home DIR or TENDER_HOME")
        }
        if isatty(0) != 0 {
            // A person at a terminal types the password without echo, --json or not.
            session.conversation = TerminalConversation()
        } else {
            var conversation = StandardInputConversation()
            if json { conversation.announce = { kind, message in JSONTurns().authenticate(kind, message) } }
            session.conversation = conversation
        }
        let observer: any DialogObserver = json ? turns : printer
        let outcome = try DialogPlayer(observer: observer, today: today).play(session) {
            if isatty(0) != 0 && !json { print("        │ > ", terminator: ""); fflush(nil) }
            return readLine()
        }
        return outcome?.code == .success ? 0 : 1
    }
}
