// SPDX-License-Identifier: Apache-2.0
/// A custom intent's example that the built-in model gives to a built-in intent: text like it
/// never reaches the custom intent (``TextParser`` leaves built-in requests to the built-in
/// intents), so `tender intents check` reports it. Pure and thread-safe.
public struct CustomIntentOverlap: Equatable, Sendable {
    /// The custom intent whose example it is.
    public let intent: String
    /// The example's text.
    public let example: String
    /// The built-in intent the built-in model understands the example as.
    public let builtIn: String

    /// Every example of `definitions` that the built-in model alone (no custom intents, no
    /// directory, no shortcuts) understands as a built-in intent, in the definitions' order.
    /// Throws ``TenderError/internal(_:)`` when the compiled models are damaged.
    public static func find(in definitions: [CustomIntentDefinition]) throws(TenderError) -> [CustomIntentOverlap] {
        // The day only dates values; which intent the text is does not depend on it.
        let context = ParseContext(today: try LocalDate(year: 2026, month: 1, day: 1))
        var found: [CustomIntentOverlap] = []
        for definition in definitions {
            for example in definition.examples {
                let parsed = try TextParser.parse(example.text, context: context)
                if !parsed.isOutOfScope { found.append(CustomIntentOverlap(intent: definition.name, example: example.text, builtIn: parsed.intentName)) }
            }
        }
        return found
    }
}
