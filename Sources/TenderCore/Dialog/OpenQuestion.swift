// SPDX-License-Identifier: Apache-2.0
/// What a session asked about one parameter in its last resolve, and so
/// which answers it accepts for it.
enum OpenQuestion: Equatable, Sendable {
    /// Choose one of these ids; the choice is kept under `key`.
    case choose(key: String, ids: [String])
    /// Say yes (keep every choice in `choices`) or no (never suggest it again) to one suggested value.
    case confirm(key: String, choices: [String: String])
    /// Supply a (new) value.
    case supplyValue
}
