// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

/// `--intents FILE` (repeatable) and `--handler PROGRAM`: the custom intents a dialog command knows and
/// the program that handles them (``ProgramIntentHost``).
struct CustomIntentOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A custom intent definition file to load (repeat for more; docs/custom-intents.md).", valueName: "FILE"))
    var intents: [String] = []

    @Option(help: ArgumentHelp("The program that handles the custom intents: one JSON call on its standard input, its answer on standard output.", valueName: "PROGRAM"))
    var handler: String?
}
