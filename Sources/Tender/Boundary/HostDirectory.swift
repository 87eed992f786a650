// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderStore

/// The ``Directory`` port on the host's lookup callback; the user vocabulary
/// and the signed-in flag stay in the embedded store.
struct HostDirectory: Directory {
    let callbacks: HostCallbacks
    let store: SQLiteStore

    func contacts() throws(TenderError) -> [Contact] { try callbacks.lookup("contacts").contacts }
    func contact(id: String) throws(TenderError) -> Contact? { try contacts().first { $0.id == id } }
    func accounts() throws(TenderError) -> [Account] { try callbacks.lookup("accounts").accounts }
    func billPayees() throws(TenderError) -> [BillPayee] { try callbacks.lookup("billPayees").billPayees }
    func bills() throws(TenderError) -> [Bill] { try callbacks.lookup("bills").bills }
    func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary { try store.vocabulary(kind) }
    func isSignedIn() throws(TenderError) -> Bool { try store.isSignedIn() }
}

/// The host owns its directory: reading it asks `lookup`, changing it is
/// refused; the vocabulary, the shortcuts and the signed-in flag stay in the embedded store.
extension HostDirectory: DirectoryAdmin {
    func directoryDocument() throws(TenderError) -> DirectoryDocument {
        DirectoryDocument(contacts: try contacts(), accounts: try accounts(), billPayees: try billPayees(), bills: try bills())
    }

    func importDirectory(_ document: DirectoryDocument) throws(TenderError) {
        throw .wrongState("this engine's directory is the host's (tender_engine_new_with_host): the host changes it, not Tender")
    }

    func removeFromDirectory(_ removal: DirectoryRemoval) throws(TenderError) {
        throw .wrongState("this engine's directory is the host's (tender_engine_new_with_host): the host changes it, not Tender")
    }

    func setVocabulary(_ vocabulary: UserVocabulary) throws(TenderError) { try store.setVocabulary(vocabulary) }
    func setSignedIn(_ signedIn: Bool) throws(TenderError) { try store.setSignedIn(signedIn) }
    func shortcuts() throws(TenderError) -> [Shortcut] { try store.shortcuts() }
    func addShortcut(_ shortcut: Shortcut) throws(TenderError) { try store.addShortcut(shortcut) }
    func removeShortcut(phrase: String) throws(TenderError) { try store.removeShortcut(phrase: phrase) }
}
