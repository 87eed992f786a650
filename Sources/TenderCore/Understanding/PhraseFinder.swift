// SPDX-License-Identifier: Apache-2.0
/// Finds the directory's people, organizations and accounts named in an
/// utterance, longest phrase first, skipping amounts and dates. Made for
/// one parse and used on its thread: the accounts are found once.
struct PhraseFinder {
    let utterance: Utterance
    let directory: (any Directory)?
    /// The accounts once found: the corrections, the classifier's words and the values all ask for them.
    let found = Found()

    final class Found {
        var accounts: [(account: Account, range: Range<Int>)]?
    }

    /// Word windows of up to `size` words that are not values, longest first.
    private func windows(_ size: Int) -> [(text: String, range: Range<Int>)] {
        var found: [(text: String, range: Range<Int>)] = []
        let tokens = utterance.tokens
        for length in stride(from: size, through: 1, by: -1) {
            for start in 0..<max(0, tokens.count - length + 1) {
                let range = start..<(start + length)
                // Filler words may sit inside a phrase ("Safe to Spend") but never begin or end one.
                guard range.allSatisfy({ tokens[$0].kind == .word && !utterance.isValue($0) }),
                    !PhraseFinder.fillers.contains(tokens[range.lowerBound].text), !PhraseFinder.fillers.contains(tokens[range.upperBound - 1].text)
                else { continue }
                found.append((range.map { tokens[$0].text }.joined(separator: " "), range))
            }
        }
        return found
    }

    /// Words never a name on their own.
    static let fillers: Set<String> = [
        "to", "for", "from", "my", "the", "a", "an", "and", "pay", "send", "give", "me", "i", "please", "can", "you", "want", "bill", "bills",
        "account", "money", "dollars", "bucks", "on", "in", "at", "of", "is", "it", "what", "how", "much", "with", "request", "ask", "charge",
        "transfer", "move", "put", "into", "due", "balance", "payment", "payments", "this", "next", "last", "month", "week",
    ]

    /// The person (a contact's name as said, or a contact-name vocabulary phrase) named, with its tokens.
    func person() throws(TenderError) -> (name: String, range: Range<Int>)? {
        guard let directory else { return nil }
        let contacts = try directory.contacts()
        let vocabulary = try directory.vocabulary(.contactName).items
        let people = contacts.map { VocabularyItem(id: $0.id, name: $0.displayName) }
        for window in windows(3) {
            if !NameMatcher.matches(window.text, in: contacts).isEmpty || VocabularyMatcher.matches(window.text, in: vocabulary).contains(where: \.exact) {
                return (window.text, window.range)
            }
            // A whole name that only sounds like a contact's ("John Bailey"): kept whole, for the dialog to confirm.
            if window.range.count > 1, !VocabularyMatcher.matches(window.text, in: people).isEmpty { return (window.text, window.range) }
        }
        return nil
    }

    /// The bill payee's organization named ("electric company"), with its tokens.
    func organization() throws(TenderError) -> (name: String, range: Range<Int>)? {
        guard let directory else { return nil }
        let payees = try directory.billPayees()
        let vocabulary = try directory.vocabulary(.paymentOrganizationName).items
        for window in windows(4) {
            // The whole name, or two words or more of it: one word ("phone", "company") names nothing.
            let key = PhraseKey.compact(window.text)
            if payees.contains(where: { PhraseKey.compact($0.organizationName) == key || (window.range.count > 1 && DialogContext.wordsWithin(window.text, $0.organizationName)) })
                || VocabularyMatcher.matches(window.text, in: vocabulary).contains(where: \.exact)
            {
                return (window.text, window.range)
            }
        }
        return nil
    }

    /// The accounts named by nickname or vocabulary, in the order said.
    func accounts() throws(TenderError) -> [(account: Account, range: Range<Int>)] {
        if let accounts = found.accounts { return accounts }
        let accounts = try findAccounts()
        found.accounts = accounts
        return accounts
    }

    private func findAccounts() throws(TenderError) -> [(account: Account, range: Range<Int>)] {
        guard let directory else { return [] }
        let accounts = try directory.accounts()
        let vocabulary = try directory.vocabulary(.accountNickname).items
        var found: [(account: Account, range: Range<Int>)] = []
        for window in windows(3) where !found.contains(where: { $0.range.overlaps(window.range) }) {
            let ids = VocabularyMatcher.matches(window.text, in: vocabulary).filter(\.exact).map(\.id)
            let key = PhraseKey.compact(window.text)
            if let account = accounts.first(where: { ids.contains($0.id) || (key.count > 2 && PhraseKey.compact($0.nickname ?? "") == key) }) {
                found.append((account, window.range))
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
