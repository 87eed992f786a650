// SPDX-License-Identifier: Apache-2.0
extension ParseResult {
    /// The intent document to start a session with: ``intent`` with the request's `"language"`, so the
    /// dialog speaks the language the person spoke; nil when out of scope.
    public var sessionIntent: JSONValue? {
        guard case let .object(members)? = intent else { return intent }
        return .object(members.filter { $0.key != "language" } + [("language", .string(language))])
    }

    /// What to say when the request is out of scope, in its language.
    public var outOfScopeSay: String { (SpeechLanguage(locale: language) ?? .english).sentences.outOfScope() }
}
