// SPDX-License-Identifier: Apache-2.0
/// What the person's reply to the open question means (``DialogSession/reply(_:)``).
public enum Reply: Equatable, Sendable {
    /// An answer to the open question about a parameter (choose, confirm or a value).
    case answer(Answer)
    /// Yes or no to the question before money moves.
    case agree(Bool)
    /// The person ended the dialog ("cancel", "never mind", "olvídalo").
    case cancel
    /// Nothing the question accepts; the sentence says so and what may be said.
    case unclear(say: String)

    /// The reply's name in the reply document: "answer", "agree", "cancel" or "unclear".
    public var name: String {
        switch self {
        case .answer: return "answer"
        case .agree: return "agree"
        case .cancel: return "cancel"
        case .unclear: return "unclear"
        }
    }
}
