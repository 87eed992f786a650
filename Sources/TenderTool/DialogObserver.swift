// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Who watches a dialog the tool plays: the person's terminal (words) or a
/// host reading one JSON object per turn.
protocol DialogObserver {
    func resolved(_ results: [ParameterResolution])
    func asked(_ open: ParameterResolution)
    func answered(_ parameter: String, _ said: String)
    func confirmed(_ code: ResponseCode, _ response: JSONValue)
    /// The question asked before money moves, in the dialog's language ("Send $20 to John Baily from Checking?").
    /// `question` is confirm's English `question`, `say` its sentence in the dialog's language.
    func askedConfirmation(_ question: String, say: String)
    /// The last reply about `parameter` was refused (`message` says why and what may be said); it is asked again.
    func rejected(_ parameter: String, _ message: String)
    /// The person said no to the confirmation question, or cancelled: nothing was paid; `say` tells them.
    func ended(_ ending: DialogPlayer.Ending, _ say: String)
    func handled(_ outcome: HandleOutcome, denial: AuthenticationDenial?)
}
