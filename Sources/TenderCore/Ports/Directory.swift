/// The port through which the core reads the person's directory: contacts
/// and their handles, and the person's own accounts.
///
/// Implementations must be safe to call from several threads.
public protocol Directory: Sendable {
    /// Every contact, in a stable order.
    func contacts() throws(TenderError) -> [Contact]
    /// The contact with this id, or nil.
    func contact(id: String) throws(TenderError) -> Contact?
    /// Every account, in a stable order.
    func accounts() throws(TenderError) -> [Account]
}

extension Directory {
    /// The account payments in `currency` are drawn from: the default one in
    /// that currency, else the first in it; nil when there is none.
    public func payingAccount(for currency: Currency) throws(TenderError) -> Account? {
        let candidates = try accounts().filter { $0.balance.currency == currency }
        return candidates.first(where: \.isDefault) ?? candidates.first
    }
}
