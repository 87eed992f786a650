// SPDX-License-Identifier: Apache-2.0
extension DialogSession {
    /// The language this dialog speaks: the request's (`"language"`), else the engine's locale.
    public var language: SpeechLanguage { intent.speechLanguage(default: engine.language) }

    /// The speaker of this dialog's sentences, today.
    var speaker: Speaker { Speaker(language: language, intent: intent, today: engine.today(), limits: engine.limits) }

    /// `results` with their sentences (and their options' words), and what each refusal offers instead.
    func spoken(_ results: [ParameterResolution], directory: any Directory) throws(TenderError)
        -> ([ParameterResolution], [String: [RefusalHelp.Offer]])
    {
        let speaker = self.speaker
        var offers: [String: [RefusalHelp.Offer]] = [:]
        var spoken: [ParameterResolution] = []
        for item in results {
            var result = item.result
            if case let .disambiguation(prompt, options) = result {
                result = .disambiguation(prompt: prompt, options: options.map { option in
                    var said = option
                    said.say = speaker.optionWords(option, prompt: prompt)
                    return said
                })
            }
            var resolution = ParameterResolution(parameter: item.parameter, result: result, message: item.message)
            let help = try RefusalHelp.offers(for: item, of: intent.schema, results: results, engine: engine, directory: directory)
            if !help.isEmpty { offers[item.parameter] = help }
            let prompt = speaker.helpPrompt(item)
            resolution.help = help.map { offer in
                var option = offer.option
                option.say = speaker.optionWords(option, prompt: prompt)
                return option
            }
            resolution.say = speaker.say(resolution, help: resolution.help)
            spoken.append(resolution)
        }
        return (spoken, offers)
    }

    /// What the person's next reply answers: the open question of the last resolve, or the
    /// question before money moves once confirm answered ready; nil when no reply is expected.
    public var awaitedReply: String? {
        if asksForAgreementNow { return "confirmation" }
        return turn.open?.parameter
    }

    private var asksForAgreementNow: Bool {
        switch phase {
        case .ready(.payment): return !agreed
        case let .ready(.custom(plan)): return plan.movesMoney && !agreed
        default: return false
        }
    }

    /// Reads the person's reply to the question they were last asked, in the dialog's language, and
    /// acts on it: an answer to the open question of the last resolve (then resolve again), yes or no to
    /// the question before money moves (``agree(_:)``), or the end of the dialog ("cancel": nothing is
    /// paid, ``cancel()``). A reply that fits nothing changes nothing and answers ``Reply/unclear(say:)``
    /// with the sentence to say. Throws ``TenderError/wrongState(_:)`` when no question awaits a reply,
    /// ``TenderError/dialogEnded(_:)`` after the dialog ended, and what ``answer(_:)`` throws for
    /// anything but a wrong reply.
    @discardableResult
    public func reply(_ said: String) throws(TenderError) -> Reply {
        switch phase {
        case .handled: throw .wrongState("the intent was already handled")
        case let .ended(reason): throw .dialogEnded(reason)
        default: break
        }
        let text = String(said.prefix(500))
        let reply: Reply
        if asksForAgreementNow {
            reply = ReplyReader.agreement(text, language)
        } else if let open = turn.open {
            reply = ReplyReader.read(
                text, for: open, offers: turn.offers[open.parameter]?.map(\.option) ?? [], kind: kind(of: open.parameter), language: language,
                today: engine.today())
        } else {
            throw .wrongState("no question awaits a reply: resolve (or confirm) first")
        }
        switch reply {
        case let .answer(answer):
            do throws(TenderError) { try self.answer(answer) } catch {
                guard Self.isWrongReply(error) else { throw error }
                return ReplyReader.unusable(language)
            }
        case let .agree(yes): try agree(yes)
        case .cancel: try cancel()
        case .unclear: break
        }
        return reply
    }

    /// What a reply says back to the person, if anything: why it was not understood, "Cancelled.
    /// Nothing was paid.", or the answer to a no before money moves.
    public func say(_ reply: Reply) -> String? { ReplyReader.say(reply, language) }

    /// The reply document: `{"reply": "answer" | "agree" | "cancel" | "unclear", "parameter"?, "yes"?, "say"?}`.
    public func document(of reply: Reply) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("reply", .string(reply.name))]
        switch reply {
        case let .answer(answer): members.append(("answer", answer.json))
        case let .agree(yes): members.append(("yes", .bool(yes)))
        default: break
        }
        if let say = say(reply) { members.append(("say", .string(say))) }
        return .object(members)
    }

    /// Ends the dialog at the person's word ("cancel", "never mind"): nothing is paid, and every later
    /// call throws ``TenderError/dialogEnded(_:)``. Throws ``TenderError/wrongState(_:)`` after handle.
    public func cancel() throws(TenderError) {
        switch phase {
        case .handled: throw .wrongState("the intent was already handled")
        case .ended: return
        default: phase = .ended("the person cancelled the dialog; nothing was paid")
        }
    }

    /// Errors that say a reply was wrong, not that something failed.
    public static func isWrongReply(_ error: TenderError) -> Bool {
        switch error {
        case .unknownOption, .notAsked, .invalidJSON, .invalidArgument, .invalidAmount, .unknownCurrency, .tooLarge, .invalidUTF8: return true
        default: return false
        }
    }
}

extension Intent {
    /// The language to speak about this intent in: its own `language` when Tender speaks it, else `fallback`.
    func speechLanguage(default fallback: SpeechLanguage) -> SpeechLanguage {
        language.flatMap(SpeechLanguage.init(locale:)) ?? fallback
    }

    /// The intent's own language when Tender speaks it, else English.
    public var speechLanguage: SpeechLanguage { speechLanguage(default: .english) }
}

extension DialogContext {
    /// The language of the dialog being resolved.
    var language: SpeechLanguage { intent.speechLanguage(default: engine.language) }
}
