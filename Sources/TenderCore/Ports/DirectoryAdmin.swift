// SPDX-License-Identifier: Apache-2.0
/// The port through which the host administers an engine's directory: the
/// whole directory as a document, importing and removing items, the user
/// vocabulary, the shortcuts and the signed-in flag. The C API's directory calls go through
/// it, never through a store, so they act on the directory resolution reads.
///
/// Implemented by the embedded store and by the host's callbacks (whose
/// directory the host changes itself). Implementations must be thread-safe.
public protocol DirectoryAdmin: Sendable {
    /// The whole directory: contacts with their handles, accounts with their current balances, bill payees, bills.
    func directoryDocument() throws(TenderError) -> DirectoryDocument
    /// Adds or replaces the document's items in one transaction: on any error nothing changes.
    func importDirectory(_ document: DirectoryDocument) throws(TenderError)
    /// Removes the named items in one transaction (``TenderError/notFound(_:)`` for an unknown id; nothing is removed then).
    func removeFromDirectory(_ removal: DirectoryRemoval) throws(TenderError)
    /// Replaces the person's vocabulary of the vocabulary's kind.
    func setVocabulary(_ vocabulary: UserVocabulary) throws(TenderError)
    /// Records whether the person is signed in to the payment service.
    func setSignedIn(_ signedIn: Bool) throws(TenderError)
    /// The registered shortcuts (phrases that start an intent).
    func shortcuts() throws(TenderError) -> [Shortcut]
    /// Registers a shortcut; the same phrase again replaces it.
    func addShortcut(_ shortcut: Shortcut) throws(TenderError)
    /// Removes the shortcut with this phrase (``TenderError/notFound(_:)`` when there is none).
    func removeShortcut(phrase: String) throws(TenderError)
}
