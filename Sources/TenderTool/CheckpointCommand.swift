// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

/// `tender checkpoint`: prints a signed checkpoint of the ledger.
struct CheckpointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Print a signed checkpoint (record count and head hash) to keep elsewhere and verify against later.")

    @OptionGroup var home: HomeOption
    @OptionGroup var broker: BrokerOption

    func run() throws {
        if let client = broker.client {
            print(try client.checkpoint())
            return
        }
        let store = try StoreOpener.open(home: try StoreOpener.requiredHome(home))
        print(try store.checkpoint())
    }
}
