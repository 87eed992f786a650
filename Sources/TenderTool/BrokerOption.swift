// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderBroker

/// `--broker PATH`, else `TENDER_BROKER`: the commands that take it ask tenderd
/// (docs/broker.md), which keeps the caller's store, instead of opening a home.
struct BrokerOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Ask the Tender broker at this socket, which keeps your store (default: $TENDER_BROKER).", valueName: "SOCKET"))
    var broker: String?

    /// The broker's client, or nil when neither the option nor the variable is set.
    var client: BrokerClient? {
        (broker ?? Environment.value("TENDER_BROKER")).map { BrokerClient(path: $0, authentication: nil) }
    }
}
