// SPDX-License-Identifier: Apache-2.0
/// Finds the vocabulary items a spoken or typed phrase refers to, deterministically.
///
/// Tiers, first non-empty wins: the query spells one of an item's forms (case, spaces and
/// punctuation ignored); the query sounds like one (same Soundex code for every word), or,
/// both being five letters or digits or more, is one edit away from one. Matches come in
/// item order. Pure functions; safe from any thread.
public enum VocabularyMatcher {
    /// The user vocabulary items `query` matches by phrase, alternatives or pronunciation.
    public static func matches(_ query: String, in items: [VocabularyItem]) -> [VocabularyMatch] {
        matches(query, in: items.map { (id: $0.id, phrase: $0.phrase, forms: $0.phrases) })
    }

    /// The app vocabulary items `query` matches by id or synonym; a match's phrase is the item id.
    public static func matches(_ query: String, in vocabulary: ParameterVocabulary) -> [VocabularyMatch] {
        matches(query, in: vocabulary.items.map { (id: $0.id, phrase: $0.id, forms: $0.phrases) })
    }

    private static func matches(_ query: String, in items: [(id: String, phrase: String, forms: [String])]) -> [VocabularyMatch] {
        let compact = PhraseKey.compact(query)
        guard !compact.isEmpty else { return [] }
        let exact = items.filter { $0.forms.contains { PhraseKey.compact($0) == compact } }
        if !exact.isEmpty { return exact.map { VocabularyMatch(id: $0.id, phrase: $0.phrase, exact: true) } }
        let sound = PhraseKey.phonetic(query)
        let soundUsable = !sound.isEmpty && !sound.contains("")
        let alike = items.filter { item in
            item.forms.contains { form in
                if soundUsable && PhraseKey.phonetic(form) == sound { return true }
                let formCompact = PhraseKey.compact(form)
                return compact.count >= 5 && formCompact.count >= 5 && PhraseKey.editDistance(compact, formCompact) <= 1
            }
        }
        return alike.map { VocabularyMatch(id: $0.id, phrase: $0.phrase, exact: false) }
    }
}
