// SPDX-License-Identifier: Apache-2.0
/// The port through which the core reads the person's directory: contacts
/// and their handles, the person's own accounts, bill payees and bills, the
/// user vocabulary, and whether the person is signed in to the payment service.
///
/// Implemented by the embedded store and by the host's callbacks.
/// Implementations must be safe to call from several threads.
public protocol Directory: Sendable {
    /// Every contact, in a stable order.
    func contacts() throws(TenderError) -> [Contact]
    /// The contact with this id, or nil.
    func contact(id: String) throws(TenderError) -> Contact?
    /// Every account, in a stable order.
    func accounts() throws(TenderError) -> [Account]
    /// Every bill payee, in a stable order.
    func billPayees() throws(TenderError) -> [BillPayee]
    /// Every bill, in a stable order.
    func bills() throws(TenderError) -> [Bill]
    /// The person's vocabulary of `kind` (empty when never set).
    func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary
    /// Whether the person is signed in to the payment service (the host's flag).
    func isSignedIn() throws(TenderError) -> Bool
    /// Runs `body`, in which the calling thread reads this directory (and the ledger beside it), as one
    /// read where the implementation can: the embedded store holds one read transaction for it, so one
    /// session call is one transaction and sees one state of the store. `body` must call no host code
    /// and must not hand work to other threads. Answers what `body` answers; throws what it throws.
    /// The default runs `body` as it is.
    func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T
    /// Inside ``readingTogether(_:)``, on its thread: a mark of the state this read sees; two equal marks mean
    /// nothing in the directory or the ledger changed between the two reads (a write of this process or of any
    /// other), so what the first read found may stand for the second. Nil when the implementation cannot tell
    /// (outside one read transaction, a host's directory): the caller reads again. The default is nil.
    func stateMark() throws(TenderError) -> DirectoryMark?
}

extension Directory {
    public func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T { try body() }
    public func stateMark() throws(TenderError) -> DirectoryMark? { nil }
}

extension Directory {
    /// The account payments in `currency` are drawn from: the default one in
    /// that currency, else the first in it; nil when there is none.
    public func payingAccount(for currency: Currency) throws(TenderError) -> Account? {
        let candidates = try accounts().filter { $0.balance.currency == currency }
        return candidates.first(where: \.isDefault) ?? candidates.first
    }
}
