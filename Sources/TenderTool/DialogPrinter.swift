// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Prints a dialog turn by turn for people to read.
struct DialogPrinter: DialogObserver {
    func banner(_ text: String) { print(text) }
    func line(_ text: String) { print(text) }

    func turn(speaker: String, _ text: String) {
        print("\n\(speaker.padding(to: 7)) │ \(text)")
    }

    func detail(_ label: String, _ text: String) {
        print("\(String().padding(to: 7)) │   \(label.padding(to: 14)) \(text)")
    }

    func resolved(_ results: [ParameterResolution]) { resolution(results) }

    func asked(_ open: ParameterResolution) {
        if let message = open.message {
            // A custom intent asks in its definition's words.
            let options = if case let .disambiguation(_, options) = open.result {
                "  " + options.enumerated().map { "\($0.offset + 1)) \($0.element.label)" }.joined(separator: "  ")
            } else { "" }
            turn(speaker: "tender", message + options + (open.result.name == "confirmationRequired" ? " (yes/no)" : ""))
            return
        }
        switch open.result {
        case let .disambiguation(prompt, options):
            let numbered = options.enumerated().map { "\($0.offset + 1)) \($0.element.label)" }.joined(separator: "  ")
            turn(speaker: "tender", "which \(prompt)? \(numbered)")
        case let .confirmationRequired(value): turn(speaker: "tender", "\(open.parameter): did you mean \(Self.spoken(value))? (yes/no)")
        case let .unsupported(reason): turn(speaker: "tender", "\(open.parameter) cannot be used (\(reason)); say another")
        default: turn(speaker: "tender", "what \(open.parameter)?")
        }
    }

    func answered(_ parameter: String, _ said: String) { turn(speaker: "person", said) }

    func confirmed(_ code: ResponseCode, _ response: JSONValue) {
        turn(speaker: "tender", "confirm → \(code.name)")
        detail("response", JSONWriter.string(response))
    }

    func askedConfirmation(_ question: String) { turn(speaker: "tender", "\(question) (yes/no)") }

    func rejected(_ parameter: String, _ message: String) { turn(speaker: "tender", "\(message). Again:") }

    func declined() { turn(speaker: "tender", "nothing was paid") }

    func handled(_ outcome: HandleOutcome, denial: AuthenticationDenial?) {
        turn(speaker: "tender", "handle → \(outcome.code.name)")
        if let record = outcome.record {
            detail("record", record.json)
            detail("jws", String(record.jws.prefix(60)) + "…")
        }
        if let result = outcome.result { detail("result", JSONWriter.string(result)) }
        if let denial { detail("denied", denial.message) }
        if let response = outcome.response {
            if let text = response.text { turn(speaker: "tender", text) }
            detail("response", JSONWriter.string(response.json))
        }
    }

    /// A resolved value as a person would say it: a name, a label, an amount.
    static func spoken(_ value: JSONValue) -> String {
        if let name = value["displayName"]?.stringValue ?? value["nickname"]?.stringValue ?? value["organizationName"]?.stringValue { return name }
        if let amount = value["amount"]?["amount"]?.stringValue ?? value["amount"]?.stringValue,
            let currency = value["amount"]?["currency"]?.stringValue ?? value["currency"]?.stringValue
        {
            return "\(amount) \(currency)"
        }
        return value.stringValue ?? JSONWriter.string(value)
    }

    func resolution(_ results: [ParameterResolution]) {
        turn(speaker: "tender", "resolve")
        for result in results { detail(result.parameter, describe(result.result)) }
    }

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
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
