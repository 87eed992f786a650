// SPDX-License-Identifier: Apache-2.0
/// A combination of parameters a shortcut may fill, with the title a shortcut of that type shows.
public struct CustomShortcutType: Equatable, Sendable {
    public let parameters: [String]
    public let title: MessageTemplate
}
