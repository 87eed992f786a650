// SPDX-License-Identifier: Apache-2.0
/// The app-wide vocabulary file, like SiriKit's `AppIntentVocabulary.plist`:
/// parameter vocabularies shared by every user, and sample requests.
public struct AppVocabulary: Equatable, Sendable {
    /// Parameter names unique when parsed.
    public let parameters: [ParameterVocabulary]
    /// Sample requests for the whole app, e.g. "pay my bill with Tender".
    public let examples: [String]

    /// No parameters and no examples.
    public static let empty = AppVocabulary(parameters: [], examples: [])

    public init(parameters: [ParameterVocabulary], examples: [String]) {
        self.parameters = parameters
        self.examples = examples
    }

    /// Parses `{"parameterVocabularies"?: [...], "examples"?: [...]}`, at most 64 parameters and
    /// 32 examples. Throws ``TenderError/invalidArgument(_:)`` for an unknown member, a parameter
    /// named twice, too many entries, or an invalid parameter vocabulary.
    public init(json: JSONValue) throws(TenderError) {
        let reader = try ObjectReader(json, name: "appVocabulary", allowed: ["parameterVocabularies", "examples"])
        let values = try reader.array("parameterVocabularies") ?? []
        guard values.count <= 64 else {
            throw .invalidArgument("appVocabulary.parameterVocabularies has more than 64 entries")
        }
        var parameters: [ParameterVocabulary] = []
        var names = Set<String>()
        for (i, value) in values.enumerated() {
            let field = "parameterVocabularies[\(i)]"
            let vocabulary = try ParameterVocabulary(json: value, field: field)
            guard names.insert(vocabulary.parameter).inserted else {
                throw .invalidArgument("\(field).parameter is used twice")
            }
            parameters.append(vocabulary)
        }
        self.init(
            parameters: parameters,
            examples: try VocabularyItem.strings(reader, "examples", maxCount: 32, maxLength: 200))
    }

    /// The JSON form; empty examples are left out.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("parameterVocabularies", .array(parameters.map(\.json)))]
        if !examples.isEmpty { members.append(("examples", .array(examples.map(JSONValue.string)))) }
        return .object(members)
    }

    /// The vocabulary of `parameter`, or nil when the file has none.
    public func vocabulary(for parameter: String) -> ParameterVocabulary? {
        parameters.first { $0.parameter == parameter }
    }
}
