// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderWiring

/// `tender intents`: custom intent definition documents (docs/custom-intents.md).
struct IntentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents",
        abstract: "Check and list custom intent definitions.",
        subcommands: [Check.self, List.self])

    /// Reads every file in order, handing each document to `each` as it is read; a later file may not
    /// reuse an earlier file's intent names. A file that cannot be read or checked stops the reading with
    /// a ValidationError naming it. The bytes are read and checked as the library reads a definition
    /// file (``EngineFactory/readJSON(_:what:)``: strict UTF-8 JSON), so both give one verdict.
    @discardableResult
    static func load(
        _ files: [String], each: (String, IntentDefinitionDocument) throws -> Void = { _, _ in }
    ) throws -> [(file: String, document: IntentDefinitionDocument)] {
        var taken = Set<String>()
        var loaded: [(file: String, document: IntentDefinitionDocument)] = []
        for file in files {
            // A Result, not do/catch: the compiler of Swift 6.3 crashes on a typed catch here.
            let read: Result<IntentDefinitionDocument, TenderError> = Result { () throws(TenderError) in
                try IntentDefinitionDocument(json: try EngineFactory.readJSON(file, what: "definition file"), taken: taken)
            }
            let document: IntentDefinitionDocument
            switch read {
            case let .success(read): document = read
            case let .failure(error): throw ValidationError("\(file): \(error.message)")
            }
            taken.formUnion(document.intents.map(\.name))
            loaded.append((file, document))
            try each(file, document)
        }
        return loaded
    }

    /// The custom intents of `files` ready for understanding; nil without files.
    static func matcher(_ files: [String]) throws -> CustomIntentMatcher? {
        guard !files.isEmpty else { return nil }
        guard let matcher = CustomIntentMatcher(intents: try load(files).flatMap(\.document.intents)) else {
            throw ValidationError("the understanding models compiled into the library are damaged")
        }
        return matcher
    }

    /// `tender intents check FILE...`: the validation alone; exit 1 with the error. Examples the built-in
    /// model gives to a built-in intent (``CustomIntentOverlap``) are reported on standard output as
    /// warnings: the file is still valid (the library loads it), but such text never reaches the intent.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check definition files: prints each file's intents and examples the built-in intents take, or the first error and exits 1.")

        @Argument(help: "Definition files (JSON), read in order.") var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one definition file") }
        }

        func run() throws {
            do {
                try IntentsCommand.load(files) { file, document in
                    print("\(file): valid, \(document.intents.count) intent\(document.intents.count == 1 ? "" : "s"): "
                        + document.intents.map(\.name).joined(separator: ", "))
                    for overlap in try CustomIntentOverlap.find(in: document.intents) {
                        print("\(file): warning: intent \"\(overlap.intent)\" example \"\(overlap.example)\" is \(overlap.builtIn) to the built-in model; "
                            + "text like it goes to \(overlap.builtIn), never to \(overlap.intent)")
                    }
                }
            } catch let error as ValidationError {
                printError(error.message)
                throw ExitCode(1)
            } catch let error as TenderError {
                printError(error.message)
                throw ExitCode(1)
            }
        }
    }

    /// `tender intents list [FILE...]`: the built-in intents, then those the files define.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the built-in intents and the custom intents of definition files, with their parameters.")

        @Argument(help: "Definition files (JSON), read in order.") var files: [String] = []
        @Flag(help: "Print one JSON object instead of lines.") var json = false

        func run() throws {
            var rows: [(name: String, source: String, category: String, parameters: [String])] = IntentSchema.all.map {
                ($0.name, "built-in", $0.movesMoney ? "moneyMovement" : "information", $0.parameters.map(\.name))
            }
            for (file, document) in try IntentsCommand.load(files) {
                rows += document.intents.map { ($0.name, file, $0.category.rawValue, $0.parameters.map(\.name)) }
            }
            if json {
                let items = rows.map { row in
                    JSONValue.object([
                        ("name", .string(row.name)), ("source", .string(row.source)), ("category", .string(row.category)),
                        ("parameters", .array(row.parameters.map { .string($0) })),
                    ])
                }
                print(JSONWriter.string(.object([("intents", .array(items))])))
            } else {
                for row in rows { print("\(row.name) (\(row.category), \(row.source)): \(row.parameters.joined(separator: ", "))") }
            }
        }
    }
}
