// SPDX-License-Identifier: Apache-2.0
/// The custom intents one engine knows (loaded from the configuration's files or added
/// at run time) and the host that handles them. Adding a document is all or nothing: a
/// document that does not check, or reuses a loaded name, leaves the catalog as it was.
/// Thread-safe; sessions already started keep the definition they started with.
public final class CustomIntentCatalog: Sendable {
    private struct State {
        var definitions: [CustomIntentDefinition] = []
        var host: (any CustomIntentHost)?
        var matcher: CustomIntentMatcher?
    }

    private let state = PthreadLocked(State())

    public init() {}

    /// Checks and adds every intent of the definition document `json`; answers their names.
    /// Throws the document's ``TenderError/invalidArgument(_:)`` (naming intent, field and reason),
    /// and ``TenderError/internal(_:)`` when the compiled understanding model is damaged.
    @discardableResult
    public func add(_ json: JSONValue) throws(TenderError) -> [String] {
        try state.withLock { (state) throws(TenderError) -> [String] in
            let document = try IntentDefinitionDocument(json: json, taken: Set(state.definitions.map(\.name)))
            let all = state.definitions + document.intents
            guard let matcher = CustomIntentMatcher(intents: all) else {
                throw .internal("the understanding models compiled into the library are damaged")
            }
            state.definitions = all
            state.matcher = matcher
            return document.intents.map(\.name)
        }
    }

    /// Every custom intent, in the order added.
    public var definitions: [CustomIntentDefinition] { state.withLock { $0.definitions } }

    /// The custom intent named `name`, or nil.
    public func definition(named name: String) -> CustomIntentDefinition? { state.withLock { $0.definitions.first { $0.name == name } } }

    /// What understands the custom intents from their examples; nil while there are none.
    public var matcher: CustomIntentMatcher? { state.withLock { $0.matcher } }

    /// The host that handles custom intents and lists their values; nil until one is set.
    public var host: (any CustomIntentHost)? { state.withLock { $0.host } }

    /// Sets (or, with nil, removes) the host; later handles and resolves use it.
    public func setHost(_ host: (any CustomIntentHost)?) { state.withLock { $0.host = host } }
}
