// SPDX-License-Identifier: Apache-2.0
/// search_for_accounts: accountNickname, accountType, organizationName,
/// requestedBalanceType; every parameter optional. Answers the matching
/// accounts with the balance of the requested type (money by default).
struct SearchForAccountsDialog: IntentDialog {
    private func settle(_ c: inout DialogContext) throws(TenderError) -> (results: [ParameterResolution], accounts: [JSONValue]) {
        var accounts = try c.directory.accounts()
        var nickname = Resolution<String>("accountNickname", .notRequired)
        if let said = c.intent.text("accountNickname") {
            let named = try c.accountsNamed(said, in: accounts)
            if let chosen = c.state.chosen["accountNickname"], let account = accounts.first(where: { $0.id == chosen }) {
                accounts = [account]
                nickname = Resolution("accountNickname", .success(.string(account.spokenName)), account.spokenName)
            } else if !named.isEmpty {
                accounts = named
                nickname = Resolution("accountNickname", .success(.string(named[0].spokenName)), named[0].spokenName)
            } else {
                let items = accounts.compactMap { a in a.nickname.map { VocabularyItem(id: a.id, name: $0) } }
                if let similar = VocabularyMatcher.matches(said, in: items).first, !c.state.declined.contains("accountNickname") {
                    nickname = c.askConfirm("accountNickname", key: "accountNickname", choices: ["accountNickname": similar.id], shown: .string(similar.phrase))
                } else {
                    nickname = c.askValue("accountNickname", .unsupported(reason: UnsupportedReason.noMatchingAccount.rawValue))
                }
                accounts = []
            }
        }
        let type = c.enumValue("accountType", AccountType.self)
        let organization = c.optionalText("organizationName")
        let balance = c.enumValue("requestedBalanceType", BalanceType.self)
        let requested = balance.value ?? .money
        let found = accounts.filter { account in
            (type.value.map { $0 == account.type } ?? true)
                && (organization.value.map { DialogContext.wordsWithin($0, account.organizationName ?? "") } ?? true)
                && (requested == .money || (requested == .points ? account.points : account.miles) != nil)
        }
        let shown = found.map { account -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [("id", .string(account.id))]
            if let nickname = account.nickname { members.append(("nickname", .string(nickname))) }
            if let org = account.organizationName { members.append(("organizationName", .string(org))) }
            members.append(("type", .string(account.type.rawValue)))
            let amount: JSONValue
            switch requested {
            case .money: amount = account.balance.json
            case .points: amount = .number(String(account.points ?? 0))
            case .miles: amount = .number(String(account.miles ?? 0))
            }
            members.append(("balance", .object([("type", .string(requested.rawValue)), ("amount", amount)])))
            return .object(members)
        }
        return ([nickname.json, type.json, organization.json, balance.json], shown)
    }

    func resolve(_ c: inout DialogContext) throws(TenderError) -> [ParameterResolution] { try settle(&c).results }

    func confirm(_ c: inout DialogContext) throws(TenderError) -> Confirmation {
        let accounts = try settle(&c).accounts
        let result: JSONValue = .object([("accounts", .array(accounts))])
        return Confirmation(accounts.isEmpty ? .failureAccountNotFound : .ready, [("result", result)], plan: .report(result))
    }
}
