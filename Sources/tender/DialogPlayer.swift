import TenderCore

/// Plays one dialog turn by turn: resolve, ask the person (`nextReply`) at
/// each open question, confirm, handle; tells `observer` about every turn.
struct DialogPlayer {
    let observer: any DialogObserver
    var today: LocalDate

    /// Plays `session` to its end and answers handle's outcome (nil when confirm did not answer ready).
    func play(_ session: DialogSession, nextReply: (ParameterResolution) -> String?) throws(TenderError) -> HandleOutcome? {
        while true {
            let results = try session.resolve()
            observer.resolved(results)
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            observer.asked(open)
            guard let said = nextReply(open) else { throw .wrongState("no reply for \(open.parameter) (\(open.result.name))") }
            observer.answered(open.parameter, said)
            let reply = DialogReply.parse(said, for: open.result)
            guard let answer = try reply.answer(to: open, kind: session.kind(of: open.parameter), today: today) else {
                throw .unknownOption("\"\(said.prefix(64))\" is not one of the options")
            }
            try session.answer(answer)
        }
        let (code, response) = try session.confirm()
        observer.confirmed(code, response)
        guard code == .ready else { return nil }
        let outcome = try session.handle()
        observer.handled(outcome, denial: session.lastDenial)
        return outcome
    }
}
