// SPDX-License-Identifier: Apache-2.0
extension DialogContext {
    /// An optional enum parameter: its exact name, a spoken form of it ("Car
    /// Loan") or an app-vocabulary synonym is success; a phrase that only
    /// sounds like one asks for confirmation; anything else is unsupported
    /// unknownValue. A confirmed or chosen value is kept as the person's choice.
    mutating func enumValue<E: NamedValue>(_ parameter: String, _ type: E.Type) -> Resolution<E> {
        if let chosen = state.chosen[parameter], let value = E(rawValue: chosen) {
            return Resolution(parameter, .success(.string(value.rawValue)), value)
        }
        guard let phrase = intent.phrase(parameter) else { return Resolution(parameter, .notRequired) }
        if let value = E(rawValue: phrase) ?? E.spoken(phrase) { return Resolution(parameter, .success(.string(value.rawValue)), value) }
        let vocabulary = engine.appVocabulary.vocabulary(for: parameter)
        let heard = vocabulary.map { VocabularyMatcher.matches(phrase, in: $0) } ?? []
        if let exact = heard.first(where: \.exact), let value = E(rawValue: exact.id) {
            return Resolution(parameter, .success(.string(value.rawValue)), value)
        }
        let names = E.allCases.map { VocabularyItem(id: $0.rawValue, name: $0.rawValue) }
        let likely = (heard + VocabularyMatcher.matches(phrase, in: names)).compactMap { E(rawValue: $0.id) }
        if let value = likely.first, !state.declined.contains(parameter) {
            return askConfirm(parameter, key: parameter, choices: [parameter: value.rawValue], shown: .string(value.rawValue))
        }
        return askValue(parameter, .unsupported(reason: UnsupportedReason.unknownValue.rawValue))
    }
}
