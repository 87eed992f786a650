// SPDX-License-Identifier: Apache-2.0
/// The languages Tender speaks to the person in: the language of the request (an intent's
/// `"language"`, or what understanding found in the text), else the engine's `locale`.
public enum SpeechLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case spanish = "es"

    /// The language of a locale or language tag: "es", "es-ES", "es_MX.UTF-8" → spanish; nil for one Tender does not speak.
    public init?(locale: String) {
        let tag = locale.prefix { $0 != "-" && $0 != "_" && $0 != "." }.lowercased()
        guard let language = SpeechLanguage(rawValue: tag) else { return nil }
        self = language
    }

    /// The sentence table of this language.
    var sentences: any SentenceTable {
        switch self {
        case .english: return EnglishSentences()
        case .spanish: return SpanishSentences()
        }
    }

    /// The words a reply may use in this language (yes, no, cancel, ordinals).
    var replyWords: ReplyWords {
        switch self {
        case .english: return .english
        case .spanish: return .spanish
        }
    }
}
