// SPDX-License-Identifier: Apache-2.0
/// Reads what the person said back to a question, in their language: yes and no ("sí", "vale",
/// "claro"), a position ("2", "the second one", "la segunda"), an option by its whole words or
/// its exact name ("Baily", "work"), a value in words ("20 dollars"), or a way to end the dialog
/// ("cancel", "never mind", "olvídalo"). A fragment of a word never picks an option ("ly", "w"),
/// and neither do fewer than three letters unless they are an option's whole name. Pure.
public enum ReplyReader {
    /// Lowercased, without punctuation, single spaces: "¡Sí, claro!" → "sí claro".
    static func normalized(_ text: String) -> String {
        var kept = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "'" || scalar == "º" || scalar == "ª" {
                kept.unicodeScalars.append(scalar)
            } else {
                kept += " "
            }
        }
        return kept.split(separator: " ").joined(separator: " ")
    }

    /// Whether `said` ends the dialog, in either language.
    static func isCancel(_ said: String) -> Bool {
        let text = normalized(said)
        return SpeechLanguage.allCases.contains { $0.replyWords.cancel.contains(text) }
    }

    /// Yes, no, or nil; `language`'s words first, then the other language's words of more than one letter.
    static func yesNo(_ said: String, _ language: SpeechLanguage) -> Bool? {
        let text = normalized(said)
        let words = language.replyWords
        if words.yes.contains(text) { return true }
        if words.no.contains(text) { return false }
        for other in SpeechLanguage.allCases where other != language && text.count > 1 {
            if other.replyWords.yes.contains(text) { return true }
            if other.replyWords.no.contains(text) { return false }
        }
        return nil
    }

    /// The reply to the question before money moves.
    public static func agreement(_ said: String, _ language: SpeechLanguage) -> Reply {
        if isCancel(said) { return .cancel }
        if let yes = yesNo(said, language) { return .agree(yes) }
        let table = language.sentences
        return .unclear(say: table.notUnderstood(table.sayYesOrNo()))
    }

    /// The reply to `open`, a parameter's question; `offers` are the options a refused value may be replaced with.
    public static func read(
        _ said: String, for open: ParameterResolution, offers: [ResolutionOption], kind: ParameterKind?, language: SpeechLanguage,
        today: LocalDate
    ) -> Reply {
        if isCancel(said) { return .cancel }
        let table = language.sentences
        // The words said for an option: the session's (`say`), else its label.
        let speaker = { (option: ResolutionOption, prompt: String) in
            option.say ?? (prompt == "handle" ? table.handleLabel(option.label) : option.label)
        }
        switch open.result {
        case let .disambiguation(prompt, options):
            if let option = pick(said, options, words: { speaker($0, prompt) }, language) {
                return .answer(Answer(parameter: open.parameter, kind: .choose(option.id)))
            }
            // Asked again with the options, when that is short enough to say.
            let again = open.say.map(table.notUnderstood).flatMap { $0.count <= Speaker.maxLength ? $0 : nil }
            return .unclear(say: again ?? table.notUnderstood(table.sayNumberOrName(options.count)))
        case .confirmationRequired:
            if let yes = yesNo(said, language) { return .answer(Answer(parameter: open.parameter, kind: .confirm(yes))) }
            return .unclear(say: table.notUnderstood(table.sayYesOrNo()))
        case .needsValue, .unsupported:
            if let option = pick(said, offers, words: { speaker($0, "") }, language) {
                return .answer(Answer(parameter: open.parameter, kind: .choose(option.id)))
            }
            do throws(TenderError) {
                let value: JSONValue
                if let kind { value = try SpokenValue.value(said, kind: kind, today: today) } else { value = try JSONParser.parse(said) }
                return .answer(Answer(parameter: open.parameter, kind: .value(value)))
            } catch {
                return .unclear(say: table.notUnderstood(table.sayAValue()))
            }
        case .success, .notRequired:
            return .unclear(say: table.notUnderstood(table.sayAValue()))
        }
    }

    /// A reply the session could not use (a value it refused): "Sorry, I didn't get that. Say it another way, or cancel.".
    public static func unusable(_ language: SpeechLanguage) -> Reply {
        let table = language.sentences
        return .unclear(say: table.notUnderstood(table.sayAValue()))
    }

    /// What `reply` says back to the person, if anything: why it was not understood, "Cancelled.
    /// Nothing was paid.", or the answer to a no before money moves.
    public static func say(_ reply: Reply, _ language: SpeechLanguage) -> String? {
        let table = language.sentences
        switch reply {
        case let .unclear(say): return say
        case .cancel: return table.cancelled()
        case .agree(false): return table.declined()
        default: return nil
        }
    }

    /// The option `said` picks: by position, by its exact name or id, or by whole words that fit it alone.
    static func pick(_ said: String, _ options: [ResolutionOption], words: (ResolutionOption) -> String, _ language: SpeechLanguage) -> ResolutionOption? {
        guard !options.isEmpty else { return nil }
        let text = normalized(said)
        guard !text.isEmpty else { return nil }
        // The exact name (or id), as said or shown: a nickname of any length.
        let key = PhraseKey.compact(said)
        if let exact = options.first(where: { PhraseKey.compact($0.label) == key || PhraseKey.compact(words($0)) == key || $0.id == said }) {
            return exact
        }
        let vocabulary = language.replyWords
        let tokens = text.split(separator: " ").map(String.init)
        // A position: "2", "the second one", "la segunda", "last".
        let positions = tokens.compactMap { token -> Int? in Int(token).flatMap { (1...99).contains($0) ? $0 : nil } ?? vocabulary.ordinals[token] }
        let rest = tokens.filter { Int($0) == nil && vocabulary.ordinals[$0] == nil && !vocabulary.filler.contains($0) }
        if rest.isEmpty, !positions.isEmpty {
            // "the second one": the position that is not the word "one".
            let position = tokens.compactMap { token -> Int? in
                ["one", "uno", "una"].contains(token) ? nil : Int(token).flatMap { (1...99).contains($0) ? $0 : nil } ?? vocabulary.ordinals[token]
            }.first ?? positions[0]
            if position == -1 { return options.last }
            return options.indices.contains(position - 1) ? options[position - 1] : nil
        }
        // Whole words of one option only, three letters at least.
        guard !rest.isEmpty, rest.joined().count >= 3 else { return nil }
        let fitting = options.filter { option in
            let names = Set(normalized(option.label + " " + words(option)).split(separator: " ").map(String.init))
            return rest.allSatisfy { names.contains($0) }
        }
        return fitting.count == 1 ? fitting[0] : nil
    }
}
