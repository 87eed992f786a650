// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Prints a dialog for people. By default only what the person hears: each sentence the
/// library says (``ParameterResolution/say``, confirm's and handle's `say`) on its own line,
/// and the person's replies after "> " when `echo` (input that is not typed at a terminal).
/// `verbose` adds the state behind each turn (resolve and confirm documents, the record), turn by turn.
struct DialogPrinter: DialogObserver {
    var verbose = true
    var echo = true

    func banner(_ text: String) { print(text) }
    func line(_ text: String) { print(text) }

    /// A sentence the person hears.
    func say(_ text: String) {
        if verbose { turn(speaker: "tender", text) } else { print(text) }
    }

    func turn(speaker: String, _ text: String) {
        print("\n\(speaker.padding(to: 7)) │ \(text)")
    }

    func detail(_ label: String, _ text: String) {
        print("\(String().padding(to: 7)) │   \(label.padding(to: 14)) \(text)")
    }

    func resolved(_ results: [ParameterResolution]) {
        guard verbose else { return }
        turn(speaker: "tender", "resolve")
        for result in results { detail(result.parameter, describe(result.result)) }
    }

    /// A result as the state shows it: "disambiguation, which person: John Appleseed or John Baily?".
    private func describe(_ result: ResolutionResult) -> String {
        switch result {
        case let .success(value): return "success \(JSONWriter.string(value))"
        case let .disambiguation(prompt, options):
            return "disambiguation, which \(prompt): " + options.map(\.label).joined(separator: " or ") + "?"
        case let .confirmationRequired(value): return "confirmationRequired \(JSONWriter.string(value))"
        case .needsValue: return "needsValue"
        case .notRequired: return "notRequired"
        case let .unsupported(reason): return "unsupported (\(reason))"
        }
    }

    func asked(_ open: ParameterResolution) {
        say(open.say ?? open.message ?? open.parameter)
    }

    func answered(_ parameter: String, _ said: String) {
        if verbose { turn(speaker: "person", said) } else if echo { print("> \(said)") }
    }

    func confirmed(_ code: ResponseCode, _ response: JSONValue) {
        if verbose {
            turn(speaker: "tender", "confirm → \(code.name)")
            detail("response", JSONWriter.string(response))
        }
        // A ready payment's sentence is its question, said next; a failure's is said now.
        if code != .ready, let text = response["say"]?.stringValue { say(text) }
    }

    func askedConfirmation(_ question: String, say text: String) {
        guard verbose else { return say(text) }
        turn(speaker: "tender", "\(question) (yes/no)")
        if text != question { detail("say", text) }
    }

    func rejected(_ parameter: String, _ message: String) { say(message) }

    func ended(_ ending: DialogPlayer.Ending, _ text: String) { say(text) }

    func handled(_ outcome: HandleOutcome, denial: AuthenticationDenial?) {
        if verbose {
            turn(speaker: "tender", "handle → \(outcome.code.name)")
            if let record = outcome.record {
                detail("record", record.json)
                detail("jws", String(record.jws.prefix(60)) + "…")
            }
            if let result = outcome.result { detail("result", JSONWriter.string(result)) }
            if let denial { detail("denied", denial.message) }
            if let response = outcome.response { detail("response", JSONWriter.string(response.json)) }
        }
        if let text = outcome.say { say(text) }
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
