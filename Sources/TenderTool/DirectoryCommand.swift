// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderStore

/// `tender directory`: manages the directory of the embedded store (contacts,
/// accounts, bill payees, bills), the user vocabulary and the signed-in flag.
struct DirectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "directory", abstract: "Manage contacts, accounts, bill payees, bills and vocabulary in the store.",
        subcommands: [Import.self, Add.self, List.self, Remove.self, Vocabulary.self, SignedIn.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add or replace everything in a directory JSON file (its schema: docs/directory.md).")
        @OptionGroup var home: HomeOption
        @OptionGroup var broker: BrokerOption
        @Argument(help: "The directory JSON file.") var file: String

        func run() throws {
            let store: any DirectoryAdmin = try broker.client ?? StoreOpener.open(home: try StoreOpener.requiredHome(home))
            try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(try TextFile.read(file))))
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add or replace items given as directory JSON, e.g. '{\"contacts\": [{\"id\": ..., \"displayName\": ..., \"handles\": [...]}]}'.")
        @OptionGroup var home: HomeOption
        @OptionGroup var broker: BrokerOption
        @Argument(help: "Directory JSON.") var json: String

        func run() throws {
            let store: any DirectoryAdmin = try broker.client ?? StoreOpener.open(home: try StoreOpener.requiredHome(home))
            try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(json)))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the whole directory as JSON.")
        @OptionGroup var home: HomeOption
        @OptionGroup var broker: BrokerOption

        func run() throws {
            if let client = broker.client {
                print(JSONWriter.string(try client.directoryDocument().json))
                return
            }
            let store = try StoreOpener.openReadOnly(home: try StoreOpener.requiredHome(home))
            print(JSONWriter.string(try store.directory().json))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove items by id; nothing is removed if one does not exist.")
        @OptionGroup var home: HomeOption
        @Option(help: "A contact id.") var contact: [String] = []
        @Option(help: "An account id.") var account: [String] = []
        @Option(name: .customLong("bill-payee"), help: "A bill payee id (its bills go too).") var billPayee: [String] = []
        @Option(help: "A bill id.") var bill: [String] = []

        func run() throws {
            let store = try StoreOpener.open(home: try StoreOpener.requiredHome(home))
            guard !(contact + account + billPayee + bill).isEmpty else { throw ValidationError("name at least one id to remove") }
            try store.removeFromDirectory(DirectoryRemoval(contacts: contact, accounts: account, billPayees: billPayee, bills: bill))
        }
    }

    struct Vocabulary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the user vocabulary of one kind from a JSON file ({\"kind\", \"items\"}), or print it.")
        @OptionGroup var home: HomeOption
        @Option(help: "Print this kind: contactName, paymentOrganizationName or accountNickname.") var show: String?
        @Argument(help: "The vocabulary JSON file to set.") var file: String?

        func run() throws {
            let path = try StoreOpener.requiredHome(home)
            let store = file == nil ? try StoreOpener.openReadOnly(home: path) : try StoreOpener.open(home: path)
            if let file { try store.setVocabulary(try UserVocabulary(json: try JSONParser.parse(try TextFile.read(file)))) }
            if let show {
                guard let kind = VocabularyKind(rawValue: show) else { throw ValidationError("unknown vocabulary kind \(show)") }
                print(JSONWriter.string(try store.vocabulary(kind).json))
            }
            if file == nil && show == nil { throw ValidationError("give a file to set or --show KIND") }
        }
    }

    struct SignedIn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signed-in", abstract: "Say whether the person is signed in to the payment service (yes or no), or print it.")
        @OptionGroup var home: HomeOption
        @Argument(help: "yes or no.") var value: String?

        func run() throws {
            let path = try StoreOpener.requiredHome(home)
            let store = value == nil ? try StoreOpener.openReadOnly(home: path) : try StoreOpener.open(home: path)
            switch value {
            case nil: print(try store.isSignedIn() ? "yes" : "no")
            case "yes"?: try store.setSignedIn(true)
            case "no"?: try store.setSignedIn(false)
            default: throw ValidationError("say yes or no")
            }
        }
    }
}
