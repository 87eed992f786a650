// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import TenderCore

/// Writes each turn of a dialog as one JSON object per line on standard
/// output (`tender ask --json`), for hosts and tests that script Tender.
/// The protocol is documented in docs/understanding.md.
struct JSONTurns: DialogObserver {
    static func emit(_ members: [(key: String, value: JSONValue)]) {
        print(JSONWriter.string(.object(members)))
        fflush(nil)
    }

    func understood(_ result: ParseResult) { Self.emit([("turn", .string("understood"))] + (result.json.objectMembers ?? [])) }

    func resolved(_ results: [ParameterResolution]) {
        Self.emit([
            ("turn", .string("resolve")), ("complete", .bool(results.allSatisfy(\.result.isResolved))),
            ("parameters", .array(results.map(\.json))),
        ])
    }

    func asked(_ open: ParameterResolution) {
        Self.emit([("turn", .string("question"))] + (open.json.objectMembers ?? []))
    }

    func answered(_ parameter: String, _ said: String) {
        Self.emit([("turn", .string("answer")), ("parameter", .string(parameter)), ("said", .string(said))])
    }

    func confirmed(_ code: ResponseCode, _ response: JSONValue) {
        Self.emit([("turn", .string("confirm")), ("code", .string(code.name)), ("response", response)])
    }

    func askedConfirmation(_ question: String, say: String) {
        Self.emit([
            ("turn", .string("question")), ("parameter", .string("confirmation")), ("result", .string("confirmation")),
            ("question", .string(question)), ("options", .array([.string("yes"), .string("no")])), ("say", .string(say)),
        ])
    }

    func rejected(_ parameter: String, _ message: String) {
        Self.emit([("turn", .string("rejected")), ("parameter", .string(parameter)), ("message", .string(message))])
    }

    func ended(_ ending: DialogPlayer.Ending, _ say: String) {
        switch ending {
        case .declined: Self.emit([("turn", .string("declined")), ("message", .string("the person said no; nothing was paid")), ("say", .string(say))])
        case .cancelled: Self.emit([("turn", .string("cancelled")), ("message", .string("the person cancelled; nothing was paid")), ("say", .string(say))])
        }
    }

    func handled(_ outcome: HandleOutcome, denial: AuthenticationDenial?) {
        var members: [(key: String, value: JSONValue)] = [("turn", .string("handle")), ("code", .string(outcome.code.name))]
        if let record = outcome.record {
            members.append(("record", (try? JSONParser.parse(record.json)) ?? .string(record.json)))
            members.append(("jws", .string(record.jws)))
        }
        if let result = outcome.result { members.append(("result", result)) }
        if let denial { members.append(("denied", .string(denial.name))) }
        if let response = outcome.response { members.append(("response", response.json)) }
        if let say = outcome.say { members.append(("say", .string(say))) }
        Self.emit(members)
    }

    func authenticate(_ kind: PromptKind, _ message: String) {
        Self.emit([("turn", .string("authenticate")), ("kind", .string(String(describing: kind))), ("message", .string(message))])
    }

    func failed(_ error: TenderError) {
        Self.emit([("turn", .string("error")), ("message", .string(error.message))])
    }
}
