// SPDX-License-Identifier: Apache-2.0
/// The person's answers so far, as explicit state: chosen ids by key
/// ("payee", "payee.handle", "billPayee"), declined suggestions, and the
/// questions of the last resolve. Never inferred again from the intent.
struct DialogState: Equatable, Sendable {
    var chosen: [String: String] = [:]
    var declined: Set<String> = []
    var questions: [String: OpenQuestion] = [:]

    /// Forgets every choice about `parameter` (its key and its sub-keys).
    mutating func forget(_ parameter: String) {
        for key in chosen.keys where key == parameter || key.hasPrefix(parameter + ".") { chosen[key] = nil }
        declined = declined.filter { $0 != parameter && !$0.hasPrefix(parameter + ".") }
    }
}
