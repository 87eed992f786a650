// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// What ``DialogPlayer`` drives: a ``DialogSession`` in process, or a
/// ``BrokeredDialog`` whose session runs in tenderd.
protocol PlayableDialog: AnyObject {
    var conversation: (any Conversation)? { get set }
    /// How many replies one question may take.
    var maxPrompts: Int { get }
    /// The language the dialog speaks (the request's, else the engine's locale).
    var language: SpeechLanguage { get }
    /// The question of the last ready confirm of an intent that moves money.
    var confirmationQuestion: String? { get }
    /// Why the last handle was not authenticated, if it was not.
    var lastDenial: AuthenticationDenial? { get }
    func resolve() throws(TenderError) -> [ParameterResolution]
    func kind(of parameter: String) -> ParameterKind?
    func answer(_ answer: Answer) throws(TenderError)
    func confirm() throws(TenderError) -> (code: ResponseCode, response: JSONValue)
    func agree(_ yes: Bool) throws(TenderError)
    func handle() throws(TenderError) -> HandleOutcome
    /// Ends the dialog at the person's word; nothing is paid.
    func cancel() throws(TenderError)
}

extension DialogSession: PlayableDialog {}
