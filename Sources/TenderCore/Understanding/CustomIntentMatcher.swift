// SPDX-License-Identifier: Apache-2.0
/// Understands the custom intents of definition documents from their examples, with no
/// retraining: an utterance's normalised words and word pairs (hashed as the classifier's,
/// ``Featurizer``) weighted by their inverse frequency in training (the rarest's for words
/// training never saw) and L2-normalised, compared by cosine with every example's; the
/// values an example marks count as one placeholder word, since they change from request
/// to request.
/// The nearest example decides when it is at least ``threshold`` alike and the built-in
/// classifier found nothing in scope: text the built-in model gives to a built-in intent is
/// never a custom intent's (``CustomIntentOverlap`` finds examples that it takes).
/// Values: amounts, people, accounts, payees and dates come from the slot labeller; other
/// types from the words between the same neighbours as in the nearest example's span.
/// Immutable and thread-safe.
public struct CustomIntentMatcher: Sendable {
    /// How alike an utterance and an example must be, by cosine, for the custom intent to
    /// win over out_of_scope (calibrated on the out-of-scope sentences of CLINC150 and SGD
    /// train with the shipped examples loaded, docs/custom-intents.md).
    public static let threshold: Float = 0.7

    struct Example {
        let intent: Int
        let example: CustomIntentExample
        let vector: [UInt64: Float]
    }

    /// A custom intent understood: the definition, the nearest example and how alike they are.
    public struct Match {
        public let intent: CustomIntentDefinition
        public let example: CustomIntentExample
        public let similarity: Float
    }

    public let intents: [CustomIntentDefinition]
    let examples: [Example]

    /// Prepares the examples of `intents`; nil when the compiled model is damaged.
    public init?(intents: [CustomIntentDefinition]) {
        guard let model = IntentModel.shared else { return nil }
        self.intents = intents
        var examples: [Example] = []
        for (index, intent) in intents.enumerated() {
            for example in intent.examples {
                examples.append(Example(intent: index, example: example, vector: Self.vector(Self.features(Self.masked(example)), model)))
            }
        }
        self.examples = examples
    }

    /// The nearest example's intent for `text`, however alike (nil without examples or features).
    public func nearest(_ text: String) -> Match? {
        guard let model = IntentModel.shared else { return nil }
        let plain = Self.vector(Self.features(text), model)
        guard !plain.isEmpty else { return nil }
        let tokens = TextToken.tokenize(text)
        var best: (Example, Float)?
        for example in examples {
            // Where the example marks values, the words the utterance has in their place count as values too.
            let vector = example.example.spans.isEmpty ? plain : Self.masked(text, tokens, like: example.example).map { Self.vector(Self.features($0), model) } ?? plain
            var dot: Float = 0
            for (hash, weight) in vector { if let other = example.vector[hash] { dot += weight * other } }
            if dot > best?.1 ?? 0 { best = (example, dot) }
        }
        return best.map { Match(intent: intents[$0.0.intent], example: $0.0.example, similarity: $0.1) }
    }

    /// The example's text with each marked value replaced by the placeholder word "zvalue".
    static func masked(_ example: CustomIntentExample) -> String {
        let scalars = Array(example.text.unicodeScalars)
        var text = String.UnicodeScalarView()
        var at = 0
        for span in example.spans.sorted(by: { $0.start < $1.start }) where span.start >= at {
            text.append(contentsOf: scalars[at..<span.start])
            text.append(contentsOf: " zvalue ".unicodeScalars)
            at = span.end
        }
        text.append(contentsOf: scalars[at...])
        return String(text)
    }

    /// `text` with the words in the place of each of the example's values replaced by "zvalue", or nil when none is found.
    static func masked(_ text: String, _ tokens: [TextToken], like example: CustomIntentExample) -> String? {
        let words = tokens.map(\.text)
        let ranges = example.spans.compactMap { valueTokens($0, words: words) }.sorted { $0.lowerBound < $1.lowerBound }
        guard !ranges.isEmpty else { return nil }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var at = 0
        for range in ranges where tokens[range.lowerBound].span.lowerBound >= at {
            result.append(contentsOf: scalars[at..<tokens[range.lowerBound].span.lowerBound])
            result.append(contentsOf: " zvalue ".unicodeScalars)
            at = tokens[range.upperBound - 1].span.upperBound
        }
        result.append(contentsOf: scalars[at...])
        return String(result)
    }

    /// The utterance's tokens (of `words`) between the same neighbouring words as `span` has in
    /// its example: at most six, at least one; nil when a neighbour is missing.
    static func valueTokens(_ span: CustomIntentExample.Span, words: [String]) -> Range<Int>? {
        var start = 0
        if let before = span.wordBefore {
            guard let at = words.firstIndex(of: before) else { return nil }
            start = at + 1
        }
        var end = words.count
        if let after = span.wordAfter {
            guard start <= words.count, let at = words[start...].firstIndex(of: after) else { return nil }
            end = at
        }
        guard start < end, end - start <= 6 else { return nil }
        return start..<end
    }

    /// The word and word-pair feature hashes of `text`, with repeats (no letter n-grams: a
    /// value's letters would outweigh the few words that tell an intent).
    static func features(_ text: String) -> [UInt64] {
        let tokens = TextToken.tokenize(text)
        var hashes: [UInt64] = []
        var previous: [UInt8] = []
        for word in Featurizer.words(tokens) {
            let bytes = Array(word.utf8)
            hashes.append(Featurizer.FNV.start(0x77).adding(bytes[...]).value)
            if !previous.isEmpty { hashes.append(Featurizer.FNV.start(0x62).adding(previous[...]).adding(0x20).adding(bytes[...]).value) }
            previous = bytes
        }
        return hashes
    }

    static func vector(_ features: [UInt64], _ model: IntentModel) -> [UInt64: Float] {
        var counts: [UInt64: Float] = [:]
        for hash in features { counts[hash, default: 0] += 1 }
        var norm: Float = 0
        for (hash, count) in counts {
            let weight = count * model.inverseFrequency(of: hash)
            counts[hash] = weight
            norm += weight * weight
        }
        guard norm > 0 else { return [:] }
        let scale = 1 / norm.squareRoot()
        return counts.mapValues { $0 * scale }
    }
}
