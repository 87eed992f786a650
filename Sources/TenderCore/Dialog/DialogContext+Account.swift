// SPDX-License-Identifier: Apache-2.0
extension DialogContext {
    /// Resolves one of the person's accounts: by id; else every account the
    /// query's nickname (as said, through the account-nickname vocabulary, or
    /// naming a type: "savings"), type and organization all fit; one →
    /// success, several → disambiguation, only similar-sounding →
    /// confirmationRequired. Without a query, `fallback` (the default
    /// paying account) is success, else needsValue (or notRequired).
    mutating func account(_ parameter: String, required: Bool, fallback: Account? = nil, excluding: Account? = nil) throws(TenderError)
        -> Resolution<Account>
    {
        let everyAccount = try directory.accounts()
        let accounts = everyAccount.filter { $0.id != excluding?.id }
        if let id = state.chosen[parameter] ?? intent.account(parameter)?.id {
            guard let account = accounts.first(where: { $0.id == id }) else {
                let reason: UnsupportedReason = id == excluding?.id ? .sameAccount : .noMatchingAccount
                return askValue(parameter, .unsupported(reason: reason.rawValue))
            }
            return Resolution(parameter, .success(account.reference), account)
        }
        if let excluding, let said = intent.account(parameter)?.nickname, try accountsNamed(said, in: everyAccount) == [excluding] {
            return askValue(parameter, .unsupported(reason: UnsupportedReason.sameAccount.rawValue))
        }
        guard let query = intent.account(parameter) else {
            if let fallback { return Resolution(parameter, .success(fallback.reference), fallback) }
            return required ? askValue(parameter, .needsValue) : Resolution(parameter, .notRequired)
        }
        var found = accounts.filter { account in
            (query.type.map { $0 == account.type } ?? true)
                && (query.organizationName.map { Self.wordsWithin($0, account.organizationName ?? "") } ?? true)
        }
        if let nickname = query.nickname {
            let named = try accountsNamed(nickname, in: found)
            if named.isEmpty {
                let items = found.compactMap { a in a.nickname.map { VocabularyItem(id: a.id, name: $0) } }
                let similar = VocabularyMatcher.matches(nickname, in: items)
                if let first = similar.first, let account = found.first(where: { $0.id == first.id }), !state.declined.contains(parameter) {
                    return askConfirm(parameter, key: parameter, choices: [parameter: account.id], shown: account.reference)
                }
            }
            found = named
        }
        switch found.count {
        case 0:
            return askValue(parameter, .unsupported(reason: UnsupportedReason.noMatchingAccount.rawValue))
        case 1: return Resolution(parameter, .success(found[0].reference), found[0])
        default:
            return askChoice(parameter, key: parameter, prompt: "account", found.map { ResolutionOption(id: $0.id, label: $0.spokenName) })
        }
    }

    /// The accounts `said` names, in order: through the vocabulary (an item's
    /// id is an account id), the nickname with case, spaces and punctuation
    /// ignored ("nest egg" → "NestEgg"), the nickname's words, or a type ("savings").
    func accountsNamed(_ said: String, in accounts: [Account]) throws(TenderError) -> [Account] {
        let vocabulary = try directory.vocabulary(.accountNickname).items
        let ids = VocabularyMatcher.matches(said, in: vocabulary).filter(\.exact).map(\.id)
        var found = accounts.filter { ids.contains($0.id) }
        let key = PhraseKey.compact(said)
        found += accounts.filter { PhraseKey.compact($0.nickname ?? "") == key }
        if found.isEmpty { found = accounts.filter { $0.nickname.map { Self.wordsWithin(said, $0) } ?? false } }
        if found.isEmpty, let type = AccountType.spoken(said) {
            found = accounts.filter { $0.type == type }
        }
        return Self.unique(found)
    }
}
