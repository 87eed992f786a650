// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// What the person says at one question of a dialog: the label or number of
/// an option, yes or no, or a value in words ("20 dollars", "John") or JSON.
enum DialogReply {
    case choose(String)
    case confirm(Bool)
    case value(String)

    /// Reads a typed line as the reply to `result`: a disambiguation takes a
    /// label (or a part of only one label) or option number, a confirmation yes/no, anything else a value.
    /// Nil for a confirmation answered neither yes nor no.
    static func parse(_ line: String, for result: ResolutionResult) -> DialogReply? {
        let text = line.trimmingASCIIWhitespaceForCLI()
        switch result {
        case .disambiguation: return .choose(text)
        case .confirmationRequired: return yesNo(text).map(DialogReply.confirm)
        default: return .value(text)
        }
    }

    /// Yes (y, yes, true, 1), no (n, no, false, 0), or nil for anything else.
    static func yesNo(_ line: String) -> Bool? {
        let text = line.trimmingASCIIWhitespaceForCLI().lowercased()
        if ["y", "yes", "true", "1"].contains(text) { return true }
        if ["n", "no", "false", "0"].contains(text) { return false }
        return nil
    }

    /// What the person may say to `result`, for a reply that fit nothing.
    static func options(for result: ResolutionResult) -> String {
        switch result {
        case let .disambiguation(_, options):
            return options.enumerated().map { "\($0.offset + 1) or \($0.element.label)" }.joined(separator: ", ")
        case .confirmationRequired: return "yes or no"
        default: return "a value"
        }
    }

    /// The answer this reply gives to `open`, a parameter of `kind`; nil when it fits no option.
    func answer(to open: ParameterResolution, kind: ParameterKind?, today: LocalDate) throws(TenderError) -> Answer? {
        switch (self, open.result) {
        case let (.choose(said), .disambiguation(_, options)):
            let index = Int(said).map { $0 - 1 }
            let key = PhraseKey.compact(said)
            let partial = options.filter { !key.isEmpty && PhraseKey.compact($0.label).contains(key) }
            let picked = index.flatMap { options.indices.contains($0) ? options[$0] : nil }
                ?? options.first { PhraseKey.compact($0.label) == key || $0.id == said }
                ?? (partial.count == 1 ? partial[0] : nil)
            return picked.map { Answer(parameter: open.parameter, kind: .choose($0.id)) }
        case let (.confirm(yes), .confirmationRequired):
            return Answer(parameter: open.parameter, kind: .confirm(yes))
        case let (.value(text), _):
            guard let kind else { return Answer(parameter: open.parameter, kind: .value(try JSONParser.parse(text))) }
            return Answer(parameter: open.parameter, kind: .value(try SpokenValue.value(text, kind: kind, today: today)))
        default:
            return nil
        }
    }

    var spoken: String {
        switch self {
        case let .choose(label): return label
        case let .confirm(yes): return yes ? "yes" : "no"
        case let .value(json): return json
        }
    }
}

extension String {
    func trimmingASCIIWhitespaceForCLI() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\n" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
