// SPDX-License-Identifier: Apache-2.0
/// Understands a typed or spoken request, offline: a registered shortcut
/// first; else the trained intent classifier decides the intent (or
/// out_of_scope, with no intent: a payment dialog never starts from
/// unrelated speech), the trained slot labeller marks the values, and the
/// value normalisers and the directory turn them into parameters. English
/// and Spanish go through the same models.
///
/// Pure and thread-safe; reads the directory through the context.
public enum TextParser {
    /// The longest text looked at, in characters.
    public static let maxTextLength = 1000
    /// The most alternatives considered.
    public static let maxAlternatives = 10

    /// Understands one utterance. Throws ``TenderError/invalidArgument(_:)``
    /// for text over ``maxTextLength``, and the directory's errors.
    public static func parse(_ text: String, context: ParseContext) throws(TenderError) -> ParseResult {
        // Characters are never more than scalars: most texts need no counting of characters.
        guard text.unicodeScalars.count <= maxTextLength || text.count <= maxTextLength else {
            throw .invalidArgument("text is longer than \(maxTextLength) characters")
        }
        let u = Utterance(text, context: context)
        // The corrections and the slots each look names up: the directory is read once per parse.
        let finder = PhraseFinder(utterance: u, directory: context.directory.map { DirectorySnapshot($0) })
        let custom = context.customIntents?.intents ?? []
        func result(_ intent: JSONValue?, _ language: String, _ source: ParseResult.Source, _ score: Float) -> ParseResult {
            ParseResult(intent: intent.map { valid($0, custom) }, text: text, language: language, source: source, score: score, namedApp: u.namedApp)
        }
        let spoken = context.shortcuts.isEmpty ? "" : PhraseKey.compact(u.spoken)
        // A shortcut's phrase is compared as said, without the app's name on either side.
        if !spoken.isEmpty, let shortcut = context.shortcuts.first(where: { $0.key == spoken }) {
            return result(shortcut.intent, "en", .shortcut, 1)
        }
        let language = Language.of(u)
        guard u.tokens.contains(where: { $0.kind == .word }) else { return result(nil, language, .none, 0) }
        guard let model = IntentModel.shared, let tagger = SlotTagger.shared else {
            throw .internal("the understanding models compiled into the library are damaged")
        }
        let labelled = tagger.spans(u)
        let spans = try DirectoryCorrection.spans(labelled, finder)
        let normalised = u.normalised(spans, accounts: try finder.accounts())
        let decision = model.decide(Featurizer.features(normalised: normalised))
        let (chosen, ask) = try DirectoryCorrection.intent(decision, labelled: labelled, corrected: spans, finder)
        // A custom intent takes only what the built-in model leaves out of scope: a definition never wins a built-in request.
        if chosen == "out_of_scope", let match = context.customIntents?.nearest(text), match.similarity >= CustomIntentMatcher.threshold {
            return result(try CustomSlotFiller.fill(match, u, spans, finder), language, .model, match.similarity)
        }
        // Text in which the classifier knows no word at all is noise, whatever its letters look like.
        guard chosen != "out_of_scope", normalised.contains(where: model.knows) else {
            return result(nil, language, .model, decision.score)
        }
        var intent = try SlotFiller.fill(chosen, u, spans, finder, context)
        if ask, case let .object(members) = intent { intent = .object(members + [(DestinationQuestion.member, .bool(true))]) }
        return result(intent, language, .model, decision.score)
    }

    /// The labeller's spans of an answer inside a dialog ("make it 500", "to
    /// Philip's savings"): each value's kind and its text as typed.
    public static func values(in text: String, context: ParseContext) throws(TenderError) -> [(slot: String, text: String)] {
        guard text.count <= maxTextLength else { throw .invalidArgument("text is longer than \(maxTextLength) characters") }
        guard let tagger = SlotTagger.shared else { throw .internal("the understanding models compiled into the library are damaged") }
        let u = Utterance(text, context: context)
        let scalars = Array(text.unicodeScalars)
        return tagger.spans(u).map { span in
            let start = u.tokens[span.tokens.lowerBound].span.lowerBound
            let end = u.tokens[span.tokens.upperBound - 1].span.upperBound
            return (span.slot, String(String.UnicodeScalarView(scalars[start..<end])))
        }
    }

    /// Understands the recogniser's n-best list: every alternative is parsed
    /// and the best in-scope one wins (shortcut, then rules, then the model;
    /// ties by the host's score, else by order). The other hearings of the
    /// chosen intent's person are kept as its name's alternatives.
    public static func parse(alternatives: [(text: String, score: Double?)], context: ParseContext) throws(TenderError) -> ParseResult {
        guard !alternatives.isEmpty, alternatives.count <= maxAlternatives else {
            throw .invalidArgument("give 1 to \(maxAlternatives) alternatives")
        }
        var parsed: [(result: ParseResult, rank: Double)] = []
        for (index, alternative) in alternatives.enumerated() {
            let result = try parse(alternative.text, context: context)
            let sourceRank: Double = [.shortcut: 3, .rules: 2, .model: 1, .none: 0][result.source] ?? 0
            let hostRank = alternative.score ?? (1 - Double(index) * 0.01)
            parsed.append((result, (result.isOutOfScope ? 0 : 10 + sourceRank) + hostRank))
        }
        guard let best = parsed.max(by: { $0.rank < $1.rank })?.result else { throw .internal("no alternative parsed") }
        return withOtherHearings(best, of: parsed.map(\.result))
    }

    private static func withOtherHearings(_ best: ParseResult, of results: [ParseResult]) -> ParseResult {
        guard case var .object(members)? = best.intent else { return best }
        for key in ["payee", "payer", "party"] {
            guard let index = members.firstIndex(where: { $0.key == key }), let name = members[index].value["name"]?.stringValue else { continue }
            var others: [String] = []
            for other in results where other.intentName == best.intentName {
                if let heard = other.intent?[key]?["name"]?.stringValue, heard != name, !others.contains(heard) { others.append(heard) }
            }
            guard !others.isEmpty else { continue }
            members[index].value = .object([("name", .string(name)), ("alternatives", .array(others.prefix(10).map(JSONValue.string)))])
        }
        return ParseResult(
            intent: .object(members), text: best.text, language: best.language, source: best.source, score: best.score, namedApp: best.namedApp)
    }

    /// `intent` when it is a valid intent document; else its name and the values the schema takes (a
    /// value the text said in a form the schema refuses is left for the dialog to ask; a shortcut to a
    /// custom intent that is not loaded keeps its name, so starting it says which intent is unknown).
    private static func valid(_ intent: JSONValue, _ custom: [CustomIntentDefinition]) -> JSONValue {
        if (try? Intent(json: intent, customIntents: custom)) != nil { return intent }
        guard case let .object(members) = intent else { return intent }
        var kept = members.filter { $0.key == "intent" }
        for member in members where member.key != "intent" {
            if (try? Intent(json: .object(kept + [member]), customIntents: custom)) != nil { kept.append(member) }
        }
        return .object(kept)
    }
}

extension TextParser {
    /// The models' raw outputs for `text`, for the parity test against the
    /// training script: the classifier's best label, its decision, and each
    /// token's label ("O", "B-person", ...).
    public static func modelOutputs(_ text: String, context: ParseContext) throws(TenderError) -> (label: String, intent: String, tags: [String]) {
        guard let model = IntentModel.shared, let tagger = SlotTagger.shared else {
            throw .internal("the understanding models compiled into the library are damaged")
        }
        let u = Utterance(text, context: context)
        let decision = model.decide(Featurizer.features(normalised: u.normalised(tagger.spans(u))))
        return (decision.label, decision.intent, tagger.labels(u))
    }
}
