// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

/// `--home DIR`, else `TENDER_HOME`: the directory holding the store.
struct HomeOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The directory holding the store (default: $TENDER_HOME).", valueName: "DIR"))
    var home: String?

    /// The chosen home, or nil when neither the option nor the variable is set.
    var resolved: String? {
        if let home { return home }
        return Environment.value("TENDER_HOME")
    }
}
