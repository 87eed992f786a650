// SPDX-License-Identifier: Apache-2.0
/// Finds the contacts a spoken or typed name refers to, deterministically.
///
/// Tiers, first non-empty wins: the whole name (case and punctuation
/// ignored); every word of the query is a word of the name; every word of
/// the query (three letters or more) begins a word of the name.
public enum NameMatcher {
    /// The contacts `query` matches, in directory order.
    public static func matches(_ query: String, in contacts: [Contact]) -> [Contact] {
        let wanted = words(query)
        guard !wanted.isEmpty else { return [] }
        let named = contacts.map { (contact: $0, words: words($0.displayName)) }
        let tiers: [([String]) -> Bool] = [
            { $0 == wanted },
            { name in wanted.allSatisfy { name.contains($0) } },
            { name in wanted.allSatisfy { w in w.count >= 3 && name.contains { $0.hasPrefix(w) } } },
        ]
        for tier in tiers {
            let found = named.filter { tier($0.words) }.map(\.contact)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Lower-cased words of letters and digits.
    static func words(_ text: String) -> [String] {
        PhraseKey.words(text)
    }
}
