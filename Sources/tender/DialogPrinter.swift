import TenderCore

/// Prints a dialog turn by turn for people to read.
struct DialogPrinter {
    func banner(_ text: String) { print(text) }
    func line(_ text: String) { print(text) }

    func turn(speaker: String, _ text: String) {
        print("\n\(speaker.padding(to: 7)) │ \(text)")
    }

    func detail(_ label: String, _ text: String) {
        print("\(String().padding(to: 7)) │   \(label.padding(to: 14)) \(text)")
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
