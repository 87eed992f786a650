// SPDX-License-Identifier: Apache-2.0
extension DialogContext {
    /// Resolves the bill payee: by id; by name (the organization, its
    /// nickname, or a payment-organization vocabulary item whose id names a
    /// payee or an organization), narrowed by the nickname the host heard;
    /// one organization with several accounts → disambiguation by nickname
    /// (the seeds' Electric Company at two addresses). Without a name, the
    /// payees with unpaid bills (of the bill type said) are offered when `offerUnpaid`.
    mutating func billPayee(_ parameter: String, required: Bool, offerUnpaid: Bool) throws(TenderError) -> Resolution<BillPayee> {
        let payees = try directory.billPayees()
        let query = intent.billPayee(parameter)
        if let id = state.chosen[parameter] ?? query?.id {
            guard let payee = payees.first(where: { $0.id == id }) else {
                return askValue(parameter, .unsupported(reason: UnsupportedReason.noMatchingBillPayee.rawValue))
            }
            return Resolution(parameter, .success(payee.json), payee)
        }
        var found: [BillPayee]
        if let query, let name = query.name {
            let vocabulary = try directory.vocabulary(.paymentOrganizationName).items
            found = []
            for hearing in [name] + query.alternatives {
                for match in VocabularyMatcher.matches(hearing, in: vocabulary) where match.exact {
                    found += payees.filter { $0.id == match.id || PhraseKey.compact($0.organizationName) == PhraseKey.compact(match.id) }
                }
                found += payees.filter { Self.named(hearing, by: $0) }
            }
            found = Self.unique(found)
            if let nickname = query.nickname {
                let narrowed = found.filter { payee in payee.nickname.map { Self.wordsWithin(nickname, $0) } ?? false }
                if !narrowed.isEmpty { found = narrowed }
            }
            if found.isEmpty {
                let items = payees.map { VocabularyItem(id: $0.id, name: $0.organizationName) }
                let similar = Self.unique(([name] + query.alternatives).flatMap { VocabularyMatcher.matches($0, in: items) }.map(\.id))
                    .compactMap { id in payees.first { $0.id == id } }
                if similar.count == 1, !state.declined.contains(parameter) {
                    return askConfirm(parameter, key: parameter, choices: [parameter: similar[0].id], shown: similar[0].json)
                }
                found = state.declined.contains(parameter) ? [] : similar
                if found.isEmpty { return askValue(parameter, .unsupported(reason: UnsupportedReason.noMatchingBillPayee.rawValue)) }
            }
        } else {
            guard offerUnpaid else { return required ? askValue(parameter, .needsValue) : Resolution(parameter, .notRequired) }
            // The payees with an unpaid bill, of the bill type said ("pay my water bill").
            let type = intent.phrase("billType").flatMap { BillType(rawValue: $0) ?? BillType.spoken($0) }
            let unpaid = Set(try directory.bills().filter { $0.status == .unpaid && (type == nil || $0.type == type) }.map(\.billPayeeID))
            found = payees.filter { unpaid.contains($0.id) }
            if found.isEmpty { return askValue(parameter, .needsValue) }
        }
        if found.count == 1 { return Resolution(parameter, .success(found[0].json), found[0]) }
        return askChoice(parameter, key: parameter, prompt: "billPayee", found.map { ResolutionOption(id: $0.id, label: $0.label) })
    }

    /// Whether every word said is a word of the payee's organization name or nickname.
    private static func named(_ said: String, by payee: BillPayee) -> Bool {
        let key = PhraseKey.compact(said)
        if key == PhraseKey.compact(payee.organizationName) || key == PhraseKey.compact(payee.nickname ?? "") { return true }
        return wordsWithin(said, payee.organizationName + " " + (payee.nickname ?? ""))
    }

    /// Whether every word of `said` (skipping "my" and "the") is a word of `name`.
    static func wordsWithin(_ said: String, _ name: String) -> Bool {
        let wanted = PhraseKey.words(said).filter { !["my", "the", "bill", "account"].contains($0) }
        let words = Set(PhraseKey.words(name))
        return !wanted.isEmpty && wanted.allSatisfy { words.contains($0) }
    }
}
