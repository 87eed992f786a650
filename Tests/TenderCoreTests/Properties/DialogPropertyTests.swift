// SPDX-License-Identifier: Apache-2.0
import PropertyBased
import Testing
@testable import TenderCore

/// The dialog state machine under random sequences of calls and answers: it never asks the
/// same question past maxPrompts, never pays without confirm answering ready and the person's
/// yes since, and never pays twice under one idempotency key.
@Suite struct DialogPropertyTests {
    static let intents = [
        #"{"intent":"send_payment","payee":{"name":"John"},"currencyAmount":{"amount":"50","currency":"USD"},"idempotencyKey":"k"}"#,
        #"{"intent":"send_payment","payee":{"name":"Tim"},"idempotencyKey":"k"}"#,
        #"{"intent":"send_payment","currencyAmount":{"amount":"2000","currency":"USD"},"idempotencyKey":"k"}"#,
        #"{"intent":"send_payment","payee":{"name":"Nobody Known"},"currencyAmount":{"amount":"1","currency":"EUR"},"idempotencyKey":"k"}"#,
        #"{"intent":"request_payment","payer":{"name":"John"},"currencyAmount":{"amount":"5","currency":"USD"},"idempotencyKey":"k"}"#,
    ]

    enum Step: CaseIterable, Sendable { case resolve, answerWell, answerBadly, answerUnasked, confirm, agreeYes, agreeNo, handle }

    @Test func randomSequencesKeepTheInvariants() async {
        let steps = Gen.element(of: Step.allCases).compactMap { $0 }.array(of: 1...40)
        await propertyCheck(count: 600, input: Gen.int(in: 0...(Self.intents.count - 1)), Gen.int(in: 1...4), steps,
                            Gen.int(in: 0...1000).array(of: 40)) { intent, maxPrompts, steps, picks in
            try Self.play(intent: Self.intents[intent], maxPrompts: maxPrompts, steps: steps, picks: picks)
        }
    }

    static func play(intent: String, maxPrompts: Int, steps: [Step], picks: [Int]) throws {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(Fixtures.directoryJSON)))
        let ledger = FakeLedger(directory: directory)
        var options = DialogOptions()
        options.maxPrompts = maxPrompts
        let engine = Engine(directory: directory, ledger: ledger, dialog: options, today: { Fixtures.today })
        let session = try Fixtures.session(intent, engine: engine)
        var open: [ParameterResolution] = []
        var repeats: [String: (ResolutionResult, Int)] = [:]
        var confirmedReady = false, agreed = false, ended = false
        var paid: PaymentRecord?
        for (index, step) in steps.enumerated() {
            let pick = picks[index % picks.count]
            do {
                switch step {
                case .resolve:
                    let results = try session.resolve()
                    open = results.filter { !$0.result.isResolved }
                    for item in results {
                        let count = item.result.isResolved ? 0 : (repeats[item.parameter]?.0 == item.result ? repeats[item.parameter]!.1 : 0) + 1
                        repeats[item.parameter] = (item.result, count)
                        #expect(count <= maxPrompts, "\(item.parameter) asked \(count) times, more than maxPrompts \(maxPrompts)")
                    }
                    confirmedReady = false; agreed = false
                case .answerWell, .answerBadly, .answerUnasked:
                    guard let answer = Self.answer(step, open: open, pick: pick) else { continue }
                    try session.answer(answer)
                    confirmedReady = false; agreed = false
                case .confirm:
                    let (code, _) = try session.confirm()
                    confirmedReady = code == .ready
                    agreed = false
                case .agreeYes:
                    try session.agree(true)
                    agreed = true
                case .agreeNo:
                    try session.agree(false)
                    ended = true
                case .handle:
                    let outcome = try session.handle()
                    if let record = outcome.record, outcome.code == .success {
                        if let earlier = paid {
                            #expect(record == earlier, "a second handle answered another record")
                        } else {
                            #expect(confirmedReady && agreed, "paid without confirm ready and the person's yes")
                            #expect(!ended, "paid after the dialog ended")
                            paid = record
                        }
                    }
                }
            } catch let error {
                switch error {
                case .dialogEnded: ended = true
                case .wrongState, .notAsked, .unknownOption, .notAgreed, .invalidArgument, .invalidAmount, .unknownCurrency: break
                default: Issue.record("unexpected \(error) at \(step)")
                }
            }
            #expect(try ledger.records().count <= 1, "more than one payment under one key")
            if paid == nil { #expect(try ledger.records().isEmpty) }
        }
    }

    /// An answer to an open question (well: an offered option, yes, a value; badly: an unknown
    /// option, no, a broken value), or to a parameter that was not asked.
    static func answer(_ step: Step, open: [ParameterResolution], pick: Int) -> Answer? {
        if step == .answerUnasked { return Answer(parameter: "note", kind: .choose("x")) }
        guard !open.isEmpty else { return nil }
        let question = open[pick % open.count]
        let well = step == .answerWell
        switch question.result {
        case let .disambiguation(_, options) where !options.isEmpty:
            return Answer(parameter: question.parameter, kind: .choose(well ? options[pick % options.count].id : "nobody-\(pick)"))
        case .confirmationRequired:
            return Answer(parameter: question.parameter, kind: .confirm(well && pick % 4 != 0))
        default:
            let amount: JSONValue = .object([("amount", .string(well ? "\(pick % 90 + 1)" : "-\(pick)")), ("currency", .string("USD"))])
            let person: JSONValue = .object([("name", .string(well ? "Tim Cook" : "Zz\(pick)"))])
            return Answer(parameter: question.parameter, kind: .value(question.parameter.lowercased().contains("amount") ? amount : person))
        }
    }
}
