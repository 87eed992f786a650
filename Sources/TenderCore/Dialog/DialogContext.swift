// SPDX-License-Identifier: Apache-2.0
/// What a resolver sees while one resolve or confirm runs: the engine, the
/// intent as stated, and the dialog state, whose questions it fills in.
struct DialogContext {
    let engine: Engine
    let intent: Intent
    var state: DialogState
    /// The session's idempotency key, to recognise a retry of a payment already recorded.
    let idempotencyKey: String
    /// The directory as this call sees it (each list read once).
    let directory: any Directory

    /// `directory`: the reading this call uses (default: a new one of the engine's directory).
    init(engine: Engine, intent: Intent, state: DialogState, idempotencyKey: String, directory: DirectorySnapshot? = nil) {
        self.engine = engine
        self.intent = intent
        self.state = state
        self.idempotencyKey = idempotencyKey
        self.directory = directory ?? DirectorySnapshot(engine.directory)
        self.state.questions = [:]
    }

    /// Asks for a value of `parameter` and answers `result`.
    mutating func askValue<T>(_ parameter: String, _ result: ResolutionResult) -> Resolution<T> {
        state.questions[parameter] = .supplyValue
        return Resolution(parameter, result)
    }

    /// Offers `options` to choose from, kept under `key`.
    mutating func askChoice<T>(_ parameter: String, key: String, prompt: String, _ options: [ResolutionOption]) -> Resolution<T> {
        state.questions[parameter] = .choose(key: key, ids: options.map(\.id))
        return Resolution(parameter, .disambiguation(prompt: prompt, options: options))
    }

    /// Suggests one value to confirm; yes keeps `choices`.
    mutating func askConfirm<T>(_ parameter: String, key: String, choices: [String: String], shown: JSONValue) -> Resolution<T> {
        state.questions[parameter] = .confirm(key: key, choices: choices)
        return Resolution(parameter, .confirmationRequired(shown))
    }

    /// An optional text parameter: success or notRequired.
    func optionalText(_ parameter: String) -> Resolution<String> {
        guard let text = intent.text(parameter) else { return Resolution(parameter, .notRequired) }
        return Resolution(parameter, .success(.string(text)), text)
    }

    /// An optional date range: success or notRequired.
    func optionalRange(_ parameter: String) -> Resolution<DateRange> {
        guard let range = intent.dateRange(parameter) else { return Resolution(parameter, .notRequired) }
        return Resolution(parameter, .success(range.json), range)
    }

    /// An optional day: notRequired, success, or unsupported pastDate when `future` and before today.
    mutating func optionalDate(_ parameter: String, future: Bool) -> Resolution<LocalDate> {
        guard let day = intent.date(parameter) else { return Resolution(parameter, .notRequired) }
        if future, day < engine.today() { return askValue(parameter, .unsupported(reason: UnsupportedReason.pastDate.rawValue)) }
        return Resolution(parameter, .success(day.json), day)
    }
}
