// SPDX-License-Identifier: Apache-2.0
/// A vocabulary item a query refers to.
public struct VocabularyMatch: Equatable, Sendable {
    /// The matched item's id.
    public let id: String
    /// The item's main phrase (for an app vocabulary item, its id), whichever form matched.
    public let phrase: String
    /// True when the query spells one of the item's forms; false when it only sounds like one.
    public let exact: Bool

    public init(id: String, phrase: String, exact: Bool) {
        self.id = id
        self.phrase = phrase
        self.exact = exact
    }
}
