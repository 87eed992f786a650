// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CTender

/// `tender`: the command-line face of libtender.
@main
struct TenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tender",
        abstract: "Payment intents for Linux: resolve, confirm and handle payments from the command line.",
        version: TENDER_VERSION_STRING,
        subcommands: [DemoCommand.self, InitCommand.self, IntentCommand.self, DirectoryCommand.self, FeaturesCommand.self, EvalCommand.self, ParseCommand.self, AskCommand.self, VerifyCommand.self, StatusCommand.self, CheckpointCommand.self, KeyCommand.self, BenchCommand.self, IntentsCommand.self])
}
