// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Plays one dialog turn by turn: resolve, ask the person (`nextReply`) at
/// each open question, confirm, ask the person the confirmation question when
/// money would move, handle; tells `observer` about every turn. Replies are
/// read by TenderCore's ``ReplyReader`` in the dialog's language; one that fits
/// nothing is answered with the library's sentence and asked again, up to the
/// engine's `maxPrompts` replies to one question. "cancel" (or "olvídalo"...)
/// ends the dialog: nothing is paid.
struct DialogPlayer {
    let observer: any DialogObserver
    var today: LocalDate

    /// How the dialog ended without handle: the person said no, or cancelled.
    enum Ending { case declined, cancelled }

    /// Plays `session` to its end and answers handle's outcome (nil when
    /// confirm did not answer ready, or the person said no or cancelled).
    func play(_ session: any PlayableDialog, nextReply: () -> String?) throws(TenderError) -> HandleOutcome? {
        let language = session.language
        while true {
            let results = try session.resolve()
            observer.resolved(results)
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            observer.asked(open)
            let reply = try replies(to: open.parameter, maxPrompts: session.maxPrompts, language: language, nextReply: nextReply) { said throws(TenderError) in
                let reply = ReplyReader.read(said, for: open, offers: open.help, kind: session.kind(of: open.parameter), language: language, today: today)
                if case let .answer(answer) = reply { try session.answer(answer) }
                return reply
            }
            if case .cancel = reply { return try cancel(session, language) }
        }
        let (code, response) = try session.confirm()
        observer.confirmed(code, response)
        guard code == .ready else { return nil }
        if let question = session.confirmationQuestion {
            observer.askedConfirmation(question, say: response["say"]?.stringValue ?? question)
            let reply = try replies(to: "confirmation", maxPrompts: session.maxPrompts, language: language, nextReply: nextReply) { said throws(TenderError) in
                ReplyReader.agreement(said, language)
            }
            switch reply {
            case .cancel: return try cancel(session, language)
            case let .agree(yes):
                try session.agree(yes)
                guard yes else {
                    observer.ended(.declined, ReplyReader.say(reply, language) ?? "")
                    return nil
                }
            default: throw .internal("the confirmation question was answered with neither yes nor no")
            }
        }
        let outcome = try session.handle()
        observer.handled(outcome, denial: session.lastDenial)
        return outcome
    }

    private func cancel(_ session: any PlayableDialog, _ language: SpeechLanguage) throws(TenderError) -> HandleOutcome? {
        try session.cancel()
        observer.ended(.cancelled, ReplyReader.say(.cancel, language) ?? "")
        return nil
    }

    /// Reads replies about `parameter` until `accept` reads one that is not unclear; a reply it
    /// refuses (an unclear one, a wrong option, a value that does not parse) is answered with the
    /// sentence that says why and asked again, at most `maxPrompts` replies in all.
    private func replies(
        to parameter: String, maxPrompts: Int, language: SpeechLanguage, nextReply: () -> String?, accept: (String) throws(TenderError) -> Reply
    ) throws(TenderError) -> Reply {
        var tries = 0
        while true {
            guard let said = nextReply() else { throw .wrongState("no reply for \(parameter)") }
            observer.answered(parameter, said)
            tries += 1
            var refusal: String
            do {
                let reply = try accept(said)
                guard case let .unclear(say) = reply else { return reply }
                refusal = say
            } catch {
                guard DialogSession.isWrongReply(error) else { throw error }
                refusal = ReplyReader.say(ReplyReader.unusable(language), language) ?? error.message
            }
            guard tries < maxPrompts else {
                throw .dialogEnded("no usable reply for \(parameter) after \(maxPrompts) tries; the dialog ended")
            }
            observer.rejected(parameter, refusal)
        }
    }
}
