import TenderCore

/// Plays one dialog turn by turn: resolve, ask the person (`nextReply`) at
/// each open question, confirm, handle; prints every turn.
struct DialogPlayer {
    let printer: DialogPrinter

    /// Plays `session` to its end and answers handle's outcome (nil when confirm did not answer ready).
    func play(_ session: DialogSession, nextReply: (ParameterResolution) -> DialogReply?) throws(TenderError) -> HandleOutcome? {
        while true {
            let results = try session.resolve()
            printer.resolution(results)
            guard let open = results.first(where: { !$0.result.isResolved }) else { break }
            guard let reply = nextReply(open) else { throw .wrongState("no reply for \(open.parameter) (\(open.result.name))") }
            printer.turn(speaker: "person", reply.spoken)
            guard let answer = try reply.answer(to: open) else { throw .unknownOption("\"\(reply.spoken)\" is not one of the options") }
            try session.answer(answer)
        }
        let (code, response) = try session.confirm()
        printer.turn(speaker: "tender", "confirm → \(code.name)")
        printer.detail("response", JSONWriter.string(response))
        guard code == .ready else { return nil }
        let outcome = try session.handle()
        printer.turn(speaker: "tender", "handle → \(outcome.code.name)")
        if let record = outcome.record {
            printer.detail("record", record.json)
            printer.detail("jws", String(record.jws.prefix(60)) + "…")
        }
        if let result = outcome.result { printer.detail("result", JSONWriter.string(result)) }
        if outcome.code == .failureCredentialsUnverified, let denial = session.lastDenial { printer.detail("denied", denial.message) }
        return outcome
    }
}
