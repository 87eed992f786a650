// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// An in-memory ``Directory`` for core tests.
final class FakeDirectory: Directory {
    private let state: Mutex<DirectoryDocument>

    init(_ document: DirectoryDocument) { state = Mutex(document) }

    func contacts() throws(TenderError) -> [Contact] { noteRead(); return state.withLock { $0.contacts } }
    func contact(id: String) throws(TenderError) -> Contact? { noteRead(); return state.withLock { $0.contacts.first { $0.id == id } } }
    func accounts() throws(TenderError) -> [Account] { noteRead(); return state.withLock { $0.accounts } }
    func billPayees() throws(TenderError) -> [BillPayee] { noteRead(); return state.withLock { $0.billPayees } }
    func bills() throws(TenderError) -> [Bill] { noteRead(); return state.withLock { $0.bills } }
    func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary {
        noteRead()
        return vocabularies.withLock { $0[kind] } ?? UserVocabulary(kind: kind, items: [])
    }
    func isSignedIn() throws(TenderError) -> Bool { noteRead(); return signedIn.load(ordering: .relaxed) }

    /// Calls of ``readingTogether(_:)`` (the store's one read transaction per session call), and the reads made inside and outside one.
    struct Together: Sendable {
        var calls = 0
        var depth = 0
        var readsInside = 0
        var readsOutside = 0
    }
    let together = Mutex(Together())

    func readingTogether<T>(_ body: () throws(TenderError) -> T) throws(TenderError) -> T {
        together.withLock { $0.calls += 1; $0.depth += 1 }
        defer { together.withLock { $0.depth -= 1 } }
        return try body()
    }

    /// The mark ``stateMark()`` answers inside ``readingTogether(_:)`` (nil: the directory cannot tell, as a host's).
    let mark = Mutex<DirectoryMark?>(nil)

    func stateMark() throws(TenderError) -> DirectoryMark? {
        together.withLock { $0.depth > 0 } ? mark.withLock { $0 } : nil
    }

    /// Moves the mark on, as a store does for every write.
    func bumpMark() {
        let writes = markBumps.add(1, ordering: .relaxed).newValue
        mark.withLock { $0 = DirectoryMark(dataVersion: 0, writes: writes) }
    }
    private let markBumps = Atomic<Int64>(0)

    private func noteRead() {
        together.withLock { if $0.depth > 0 { $0.readsInside += 1 } else { $0.readsOutside += 1 } }
    }

    let signedIn = Atomic(true)
    let vocabularies = Mutex<[VocabularyKind: UserVocabulary]>([:])

    /// Replaces the directory's bills (as paying one does).
    func setBills(_ bills: [Bill]) { state.withLock { $0.bills = bills } }

    /// Sets an account's balance, as another process paying would.
    func setBalance(_ id: String, minorUnits: Int64) {
        state.withLock { document in
            guard let index = document.accounts.firstIndex(where: { $0.id == id }) else { return }
            let old = document.accounts[index]
            guard let balance = try? Money(minorUnits: minorUnits, currency: old.balance.currency) else { return }
            document.accounts[index] = Account(
                id: old.id, nickname: old.nickname, organizationName: old.organizationName, type: old.type, balance: balance,
                points: old.points, miles: old.miles, isDefault: old.isDefault)
        }
    }

    func balance(_ id: String) -> Int64? { state.withLock { $0.accounts.first { $0.id == id }?.balance.minorUnits } }
}
