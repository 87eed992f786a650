import Synchronization
import TenderCore

/// An in-memory ``Directory`` for core tests.
final class FakeDirectory: Directory {
    private let state: Mutex<DirectoryDocument>

    init(_ document: DirectoryDocument) { state = Mutex(document) }

    func contacts() throws(TenderError) -> [Contact] { state.withLock { $0.contacts } }
    func contact(id: String) throws(TenderError) -> Contact? { state.withLock { $0.contacts.first { $0.id == id } } }
    func accounts() throws(TenderError) -> [Account] { state.withLock { $0.accounts } }

    /// Sets an account's balance, as another process paying would.
    func setBalance(_ id: String, minorUnits: Int64) {
        state.withLock { document in
            guard let index = document.accounts.firstIndex(where: { $0.id == id }) else { return }
            let old = document.accounts[index]
            guard let balance = try? Money(minorUnits: minorUnits, currency: old.balance.currency) else { return }
            document.accounts[index] = Account(id: old.id, nickname: old.nickname, kind: old.kind, balance: balance, isDefault: old.isDefault)
        }
    }

    func balance(_ id: String) -> Int64? { state.withLock { $0.accounts.first { $0.id == id }?.balance.minorUnits } }
}
