// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderStore

/// `tender parse "text" ["alternative" ...]`: what Tender understands from a
/// request (several texts: the recogniser's n-best list, best first), with
/// the directory, shortcuts and vocabulary of a home when one is given.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "Print the intent Tender understands from a request, or out_of_scope, as JSON.")

    @OptionGroup var home: HomeOption

    @Argument(help: "The request; more texts are alternatives (an n-best list, best first).") var texts: [String]

    @Option(help: ArgumentHelp("A custom intent definition file to load (repeat for more).", valueName: "FILE"))
    var intents: [String] = []

    func run() throws {
        guard !texts.isEmpty else { throw ValidationError("give the text of a request") }
        var context = ParseContext(today: WallClock.today())
        context.customIntents = try IntentsCommand.matcher(intents)
        if let path = home.resolved {
            let store = try StoreOpener.openReadOnly(home: path)  // parsing reads; it never creates a home
            context.directory = store
            context.shortcuts = try store.shortcuts()
        }
        let result = texts.count == 1
            ? try TextParser.parse(texts[0], context: context)
            : try TextParser.parse(alternatives: texts.map { ($0, nil) }, context: context)
        print(JSONWriter.string(result.json))
    }
}
