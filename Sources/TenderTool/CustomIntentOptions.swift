// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

/// `--intents FILE` (repeatable), `--handler PROGRAM` and `--handler-timeout SECONDS`: the custom intents a
/// dialog command knows, the program that handles them (``ProgramIntentHost``) and how long one call may take.
struct CustomIntentOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A custom intent definition file to load (repeat for more; docs/custom-intents.md).", valueName: "FILE"))
    var intents: [String] = []

    @Option(help: ArgumentHelp("The program that handles the custom intents: one JSON call on its standard input, its answer on standard output.", valueName: "PROGRAM"))
    var handler: String?

    @Option(help: ArgumentHelp("How long one call of the handler may take before it is stopped (default 30).", valueName: "SECONDS"))
    var handlerTimeout: Int = ProgramIntentHost.defaultTimeoutSeconds

    func validate() throws {
        guard (1...3600).contains(handlerTimeout) else { throw ValidationError("--handler-timeout must be 1 to 3600 seconds") }
    }
}
