// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore

/// `tender init`: creates a home and its store; `--force` starts a new ledger
/// in a home that held one whose store is missing (ledger continuity).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the home and its store; --force starts a new ledger where a ledger's store is missing.")

    @OptionGroup var home: HomeOption
    @Flag(help: "Start a new ledger even though this home held one (its keys or marker remain, its store is gone).")
    var force = false

    func run() throws {
        let path = try StoreOpener.requiredHome(home)
        _ = try StoreOpener.open(home: path, newLedger: force)
        print("home ready: \(path)")
    }
}
