// SPDX-License-Identifier: Apache-2.0
/// What parsing may look at besides the text: the person's directory (to
/// find names, organizations and accounts), their shortcuts, the app-wide
/// vocabulary, today, and the currency of amounts said without one.
public struct ParseContext: Sendable {
    public var directory: (any Directory)?
    public var shortcuts: [Shortcut]
    public var vocabulary: AppVocabulary
    public var today: LocalDate
    public var defaultCurrency: Currency
    /// The custom intents loaded from definition documents, understood from their examples.
    public var customIntents: CustomIntentMatcher?

    public init(
        directory: (any Directory)? = nil, shortcuts: [Shortcut] = [], vocabulary: AppVocabulary = .empty, today: LocalDate,
        defaultCurrency: Currency = .usDollar, customIntents: CustomIntentMatcher? = nil
    ) {
        self.customIntents = customIntents
        self.directory = directory
        self.shortcuts = shortcuts
        self.vocabulary = vocabulary
        self.today = today
        self.defaultCurrency = defaultCurrency
    }
}
