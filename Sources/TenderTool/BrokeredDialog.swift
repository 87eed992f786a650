// SPDX-License-Identifier: Apache-2.0
import TenderBroker
import TenderCore

/// A dialog the tool plays through tenderd (`--broker`): the session runs in
/// the daemon; this side reads its documents back into the values the player
/// and the printers show. Custom intents are not brokered.
final class BrokeredDialog: PlayableDialog {
    private let session: BrokeredSession
    /// The session's intent: the daemon's resolution names it (the destination question can change it).
    private var schema: IntentSchema
    private(set) var confirmationQuestion: String?
    private(set) var lastDenial: AuthenticationDenial?
    /// The request's language; the daemon speaks it too.
    let language: SpeechLanguage
    /// The daemon's root policy sets the dialog's own limit; this bounds the replies the tool asks for.
    let maxPrompts = DialogOptions().maxPrompts

    var conversation: (any Conversation)? {
        get { session.conversation }
        set { session.conversation = newValue }
    }

    /// Starts a dialog about `intent` (the host's JSON) in the daemon `client` talks to.
    init(client: BrokerClient, intent: JSONValue) throws(TenderError) {
        let parsed = try Intent(json: intent)
        schema = parsed.schema
        language = parsed.speechLanguage
        session = try BrokeredSession(client: client, intent: intent)
    }

    func kind(of parameter: String) -> ParameterKind? { schema.kind(of: parameter) }

    func resolve() throws(TenderError) -> [ParameterResolution] {
        let document = try session.resolveJSON()
        guard let items = document["parameters"]?.arrayValue else { throw .store("the broker answered a resolution without parameters") }
        if let name = document["intent"]?.stringValue, let named = IntentSchema.named(name) { schema = named }
        var results: [ParameterResolution] = []
        for item in items { results.append(try Self.resolution(item)) }
        return results
    }

    func answer(_ answer: Answer) throws(TenderError) { try session.answer(answer) }

    func confirm() throws(TenderError) -> (code: ResponseCode, response: JSONValue) {
        let (code, response) = try session.confirm()
        confirmationQuestion = code == .ready ? response["question"]?.stringValue : nil
        return (code, response)
    }

    func agree(_ yes: Bool) throws(TenderError) { try session.agree(yes) }

    /// Ends the dialog here: the daemon's session is dropped unhandled, so nothing is paid.
    func cancel() throws(TenderError) {}

    func handle() throws(TenderError) -> HandleOutcome {
        let (code, document) = try session.handleDocument()
        lastDenial = document["denial"].flatMap(Self.denial)
        var record: PaymentRecord?
        if let fields = document["record"], let jws = document["jws"]?.stringValue {
            guard case let .number(sequence)? = fields["sequence"], let number = Int64(sequence) else {
                throw .store("the broker answered a record without its sequence number")
            }
            record = PaymentRecord(
                json: JSONWriter.string(fields), jws: jws, sequence: number, idempotencyKey: fields["idempotencyKey"]?.stringValue ?? "")
        }
        var outcome = HandleOutcome(code: code, record: record, result: document["result"], denial: lastDenial)
        outcome.say = document["say"]?.stringValue
        return outcome
    }

    /// One parameter's resolution as ``ParameterResolution/json`` writes it.
    static func resolution(_ json: JSONValue) throws(TenderError) -> ParameterResolution {
        let reader = try ObjectReader(
            json, name: "resolution", allowed: ["parameter", "result", "value", "prompt", "options", "reason", "message", "say"])
        let parameter = try reader.requiredString("parameter", maxLength: 64)
        let result: ResolutionResult
        switch try reader.requiredString("result", maxLength: 32) {
        case "success": result = .success(reader["value"] ?? .null)
        case "confirmationRequired": result = .confirmationRequired(reader["value"] ?? .null)
        case "needsValue": result = .needsValue
        case "notRequired": result = .notRequired
        case "unsupported": result = .unsupported(reason: try reader.string("reason", maxLength: 64) ?? "")
        case "disambiguation":
            result = .disambiguation(prompt: try reader.string("prompt", maxLength: 64) ?? "", options: try options(reader))
        case let other: throw .store("the broker answered an unknown resolution result \"\(other.prefix(32))\"")
        }
        var resolution = ParameterResolution(parameter: parameter, result: result, message: try reader.string("message"))
        resolution.say = try reader.string("say")
        switch result {
        case .unsupported, .needsValue: resolution.help = try options(reader)
        default: break
        }
        return resolution
    }

    /// The options of a resolution (`{"id", "label", "say"}`).
    private static func options(_ reader: ObjectReader) throws(TenderError) -> [ResolutionOption] {
        var options: [ResolutionOption] = []
        for option in try reader.array("options") ?? [] {
            let fields = try ObjectReader(option, name: "option", allowed: ["id", "label", "say"])
            options.append(
                ResolutionOption(id: try fields.requiredString("id", maxLength: 128), label: try fields.string("label") ?? "", say: try fields.string("say")))
        }
        return options
    }

    /// A denial as ``AuthenticationDenial/document`` writes it.
    static func denial(_ json: JSONValue) -> AuthenticationDenial? {
        let message = json["message"]?.stringValue ?? ""
        switch json["reason"]?.stringValue {
        case "wrongCredentials": return .wrongCredentials(message)
        case "accountUnavailable": return .accountUnavailable(message)
        case "cancelled": return .cancelled(message)
        case "throttled":
            guard case let .number(seconds)? = json["retryAfterSeconds"], let value = Int64(seconds) else { return .systemError(message) }
            return .throttled(retryAfterSeconds: value)
        default: return .systemError(message)
        }
    }
}
