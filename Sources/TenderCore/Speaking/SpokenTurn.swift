// SPDX-License-Identifier: Apache-2.0
/// The question of a session's last resolve that the person's next reply answers, and what it
/// offered instead of each refused value.
struct SpokenTurn {
    /// The first open question of the last resolve; nil once answered (resolve again) or when none is open.
    var open: ParameterResolution?
    /// By parameter: the values offered instead of a refused one.
    var offers: [String: [RefusalHelp.Offer]] = [:]
}
