// SPDX-License-Identifier: Apache-2.0
/// The directory as one session call (or one parse) sees it: each list
/// read once, then kept. A session keeps its last one with the store's
/// mark (``Directory/stateMark()``) and its next call uses it again while
/// the mark is the same (nothing changed in the store): a confirm right after
/// its resolve reads nothing again. Used by one thread at a time.
final class DirectorySnapshot: Directory, @unchecked Sendable {
    private let base: any Directory
    private var cachedContacts: [String: Contact?] = [:]
    private var everyContact: [Contact]?
    private var cachedAccounts: [Account]?
    private var cachedPayees: [BillPayee]?
    private var cachedBills: [Bill]?
    private var cachedVocabulary: [VocabularyKind: UserVocabulary] = [:]
    private var signedIn: Bool?

    init(_ base: any Directory) { self.base = base }

    func contacts() throws(TenderError) -> [Contact] {
        if let everyContact { return everyContact }
        let found = try base.contacts()
        everyContact = found
        return found
    }

    func contact(id: String) throws(TenderError) -> Contact? {
        if let known = cachedContacts[id] { return known }
        if let everyContact { return everyContact.first { $0.id == id } }
        let found = try base.contact(id: id)
        cachedContacts[id] = .some(found)
        return found
    }

    func accounts() throws(TenderError) -> [Account] {
        if let cachedAccounts { return cachedAccounts }
        let found = try base.accounts()
        cachedAccounts = found
        return found
    }

    func billPayees() throws(TenderError) -> [BillPayee] {
        if let cachedPayees { return cachedPayees }
        let found = try base.billPayees()
        cachedPayees = found
        return found
    }

    func bills() throws(TenderError) -> [Bill] {
        if let cachedBills { return cachedBills }
        let found = try base.bills()
        cachedBills = found
        return found
    }

    func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary {
        if let known = cachedVocabulary[kind] { return known }
        let found = try base.vocabulary(kind)
        cachedVocabulary[kind] = found
        return found
    }

    func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T { try base.readingTogether(body) }

    func isSignedIn() throws(TenderError) -> Bool {
        if let signedIn { return signedIn }
        let found = try base.isSignedIn()
        signedIn = found
        return found
    }
}
