// SPDX-License-Identifier: Apache-2.0
/// Which language an utterance is in, for the result's `language` member:
/// Spanish when more of its words lean to Spanish than to English
/// (LanguageWords, learnt by scripts/language-words.py from wordfreq and the
/// training lines), else English. Only a label: the same models read both
/// languages. Pure and thread-safe.
enum Language {
    /// "es" or "en".
    static func of(_ u: Utterance) -> String {
        of(words: u.words)
    }

    /// "es" when more of `words` (lower-cased tokens) are Spanish-leaning than English-leaning, else "en".
    static func of(words: [String]) -> String {
        var lean = 0
        for word in words {
            if LanguageWords.spanish.contains(word) {
                lean += 1
            } else if LanguageWords.english.contains(word) {
                lean -= 1
            }
        }
        return lean > 0 ? "es" : "en"
    }
}
