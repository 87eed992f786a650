// SPDX-License-Identifier: Apache-2.0
/// A closed set of values named in JSON by their SiriKit names ("electricity", "checking").
public protocol NamedValue: RawRepresentable, CaseIterable, Sendable, Equatable where RawValue == String {
    /// The value's kind in messages ("bill type").
    static var kindName: String { get }
    /// Other names accepted for a value ("savings" for saving).
    static var aliases: [String: Self] { get }
}

extension NamedValue {
    public static var aliases: [String: Self] { [:] }

    /// The value named `text`, or ``TenderError/invalidArgument(_:)`` listing every name.
    public static func named(_ text: String, field: String) throws(TenderError) -> Self {
        guard let value = Self(rawValue: text) ?? aliases[text] else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidArgument("\(field) must be a \(kindName): one of \(names)")
        }
        return value
    }

    /// The value whose name equals `phrase` once case, spaces and punctuation are ignored ("Car Loan" → carLoan).
    public static func spoken(_ phrase: String) -> Self? {
        let key = PhraseKey.compact(phrase)
        guard !key.isEmpty else { return nil }
        return allCases.first { PhraseKey.compact($0.rawValue) == key } ?? aliases.first { PhraseKey.compact($0.key) == key }?.value
    }
}
