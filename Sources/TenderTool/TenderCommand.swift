// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CTender
#if canImport(Glibc)
import Glibc
#endif

/// `tender`: the command-line face of libtender.
@main
struct TenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tender",
        abstract: "Payment intents for Linux: resolve, confirm and handle payments from the command line.",
        version: TENDER_VERSION_STRING,
        subcommands: [DemoCommand.self, InitCommand.self, IntentCommand.self, DirectoryCommand.self, FeaturesCommand.self, EvalCommand.self, ParseCommand.self, AskCommand.self, VerifyCommand.self, StatusCommand.self, CheckpointCommand.self, KeyCommand.self, BenchCommand.self, IntentsCommand.self, MigrateCommand.self])

    /// Parses the arguments the kernel kept (ProcessArguments says why not CommandLine.arguments).
    static func main() {
        guard let arguments = ProcessArguments.current() else {
            _ = "tender: cannot read the command line (no /proc/self/cmdline and no argv)\n".withCString { write(2, $0, strlen($0)) }
            Glibc.exit(2)
        }
        main(arguments)
    }
}
