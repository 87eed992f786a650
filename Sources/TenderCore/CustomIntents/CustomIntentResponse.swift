// SPDX-License-Identifier: Apache-2.0
/// What handling a custom intent answered: the host's response code (one of the definition's),
/// the values it returned for the outputs, and the definition's response for that code in the
/// person's words.
public struct CustomIntentResponse: Equatable, Sendable {
    /// The code as the host answered it: success, failure, failureRequiringAppLaunch, inProgress, or one of the definition's own.
    public let code: String
    /// The outputs the host returned, `{"amountLeft": {...}}`.
    public let values: JSONValue
    /// The definition's template for the code with every value in words; nil when the definition has none for it.
    public let text: String?

    /// The response code the C API and the outcome's "code" carry: the standard codes as named; a code
    /// of the definition's own counts as success when its name starts with "success", else as failure.
    public var responseCode: ResponseCode {
        switch code {
        case "success": return .success
        case "inProgress": return .inProgress
        case "failureRequiringAppLaunch": return .failureRequiringAppLaunch
        default: return code.hasPrefix("success") ? .success : .failure
        }
    }

    /// `{"code", "values", "text"}` as the handle outcome document carries it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .string(code)), ("values", values)]
        if let text { members.append(("text", .string(text))) }
        return .object(members)
    }

    /// What the signed record keeps: the code and the values (the text is rendered again from them).
    var recordJSON: JSONValue { .object([("code", .string(code)), ("values", values)]) }

    /// Reads the host's answer, `{"code": "...", "values": {...}}`, for `definition`, and renders its
    /// response in `language` with `words` (the parameters' values in words). Throws ``TenderError/callback(_:)``
    /// for a code the definition does not know, an output it does not declare, or a value of the wrong type.
    init(reply: JSONValue, definition: CustomIntentDefinition, words: [String: String], language: SpeechLanguage = .english) throws(TenderError) {
        let reader: ObjectReader
        do throws(TenderError) { reader = try ObjectReader(reply, name: "reply", allowed: ["code", "values"]) } catch {
            throw .callback("the host's handle callback answered \(error.message)")
        }
        guard let code = reply["code"]?.stringValue,
            CustomIntentDefinition.standardCodes.contains(code) || definition.responses.contains(where: { $0.code == code })
        else {
            let known = Set(CustomIntentDefinition.standardCodes + definition.responses.map(\.code)).sorted().joined(separator: ", ")
            throw .callback("the host's handle callback answered no code \(definition.name) knows (\(known))")
        }
        var allWords = words
        var values: [(key: String, value: JSONValue)] = []
        if let given = reader["values"] {
            guard let members = given.objectMembers else { throw .callback("the host's handle callback answered values that are not an object") }
            for member in members {
                guard let output = definition.outputs.first(where: { $0.name == member.key }) else {
                    throw .callback("the host's handle callback answered \"\(member.key.prefix(64))\", which is not an output of \(definition.name)")
                }
                do throws(TenderError) { _ = try ParameterValue(json: member.value, kind: output.type.kind, field: output.name) } catch {
                    throw .callback("the host's handle callback answered a bad \(output.name): \(error.message)")
                }
                values.append(member)
                allWords[output.name] = CustomValueWords.words(member.value, type: output.type, language: language)
            }
        }
        self.code = code
        self.values = .object(values)
        text = definition.responses.first { $0.code == code }?.template.render(allWords, language: language.rawValue)
    }
}
