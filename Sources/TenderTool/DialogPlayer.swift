// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Plays one dialog turn by turn: resolve, ask the person (`nextReply`) at
/// each open question, confirm, ask the person the confirmation question when
/// money would move, handle; tells `observer` about every turn. A reply that
/// fits no option is refused with the options and asked again, up to the
/// engine's `maxPrompts` replies to one question.
struct DialogPlayer {
    let observer: any DialogObserver
    var today: LocalDate

    /// What the person may reply to the confirmation question.
    static let yesNo = "yes or no"

    /// Plays `session` to its end and answers handle's outcome (nil when
    /// confirm did not answer ready, or the person said no).
    func play(_ session: any PlayableDialog, nextReply: () -> String?) throws(TenderError) -> HandleOutcome? {
        while true {
            let results = try session.resolve()
            observer.resolved(results)
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            try answer(open, in: session, nextReply: nextReply)
        }
        let (code, response) = try session.confirm()
        observer.confirmed(code, response)
        guard code == .ready else { return nil }
        if let question = session.confirmationQuestion {
            observer.askedConfirmation(question)
            let yes = try replies(to: "confirmation", maxPrompts: session.maxPrompts, nextReply: nextReply) { said throws(TenderError) in
                guard let yes = DialogReply.yesNo(said) else { throw .notAsked("\"\(said.prefix(64))\" is not yes or no; say yes or no") }
                return yes
            }
            try session.agree(yes)
            guard yes else {
                observer.declined()
                return nil
            }
        }
        let outcome = try session.handle()
        observer.handled(outcome, denial: session.lastDenial)
        return outcome
    }

    /// Asks `open` until a reply is accepted by the session.
    private func answer(_ open: ParameterResolution, in session: any PlayableDialog, nextReply: () -> String?) throws(TenderError) {
        observer.asked(open)
        try replies(to: open.parameter, maxPrompts: session.maxPrompts, nextReply: nextReply) { said throws(TenderError) in
            let reply = DialogReply.parse(said, for: open.result)
            guard let answer = try reply?.answer(to: open, kind: session.kind(of: open.parameter), today: today) else {
                throw .unknownOption("\"\(said.prefix(64))\" is not one of the options; say \(DialogReply.options(for: open.result))")
            }
            try session.answer(answer)
        }
    }

    /// Reads replies about `parameter` until `accept` takes one; a reply it
    /// refuses (a wrong option, a value that does not parse) is shown with the
    /// reason and asked again, at most `maxPrompts` replies in all.
    @discardableResult
    private func replies<T>(to parameter: String, maxPrompts: Int, nextReply: () -> String?, accept: (String) throws(TenderError) -> T)
        throws(TenderError) -> T
    {
        var tries = 0
        while true {
            guard let said = nextReply() else { throw .wrongState("no reply for \(parameter)") }
            observer.answered(parameter, said)
            tries += 1
            do {
                return try accept(said)
            } catch {
                guard Self.isWrongReply(error) else { throw error }
                guard tries < maxPrompts else {
                    throw .dialogEnded("no usable reply for \(parameter) after \(maxPrompts) tries (\(error.message)); the dialog ended")
                }
                observer.rejected(parameter, error.message)
            }
        }
    }

    /// Errors that say the reply was wrong, not that something failed.
    private static func isWrongReply(_ error: TenderError) -> Bool {
        switch error {
        case .unknownOption, .notAsked, .invalidJSON, .invalidArgument, .invalidAmount, .unknownCurrency, .tooLarge, .invalidUTF8: return true
        default: return false
        }
    }
}
