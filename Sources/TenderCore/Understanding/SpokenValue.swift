// SPDX-License-Identifier: Apache-2.0
/// Reads a value the person says in answer to a question about a parameter
/// ("twenty dollars", "John", "the minimum", "tomorrow"), as the JSON value
/// tender_session_answer takes; a JSON text is taken as it is.
public enum SpokenValue {
    /// The value for a parameter of `kind`; ``TenderError/invalidArgument(_:)`` when the words say none.
    public static func value(_ said: String, kind: ParameterKind, today: LocalDate, currency: Currency = .usDollar) throws(TenderError) -> JSONValue {
        let text = said.trimmingCharacters()
        if let first = text.first, first == "{" || first == "\"" || first == "[" { return try JSONParser.parse(text) }
        guard !text.isEmpty else { throw .invalidArgument("say a value") }
        let tokens = TextToken.tokenize(text)
        switch kind {
        case .person: return .object([("name", .string(try labelled(text, ["person"], today)))])
        case .billPayee: return .object([("name", .string(try labelled(text, ["org"], today)))])
        case .account: return .object([("nickname", .string(try labelled(text, ["account", "to_account", "from_account"], today)))])
        case .currencyAmount:
            guard let amount = AmountExtractor.find(in: tokens, defaultCurrency: currency, bareNumbers: true).first else {
                throw .invalidArgument("say an amount, like \"20 dollars\"")
            }
            return amount.money.json
        case .transactionAmount:
            let u = Utterance(text, context: ParseContext(today: today, defaultCurrency: currency))
            if let money = u.amount { return .object([("amount", money.json)]) }
            if let type = SlotFiller.amountType(u) { return .object([("amountType", .string(type.rawValue))]) }
            throw .invalidArgument("say an amount, or \"the minimum\" or \"the full balance\"")
        case .date:
            if let day = DateExtractor.find(in: tokens, today: today).compactMap(\.day).first { return day.json }
            return .string(text)
        case .dateRange:
            if let found = DateExtractor.find(in: tokens, today: today).first {
                return (found.range ?? DateRange(start: found.day, end: found.day)).json
            }
            throw .invalidArgument("say a period, like \"this month\"")
        case .note, .text, .billType, .paymentStatus, .accountType, .balanceType, .choice, .integer, .decimal:
            return .string(text)
        case .boolean:
            let word = text.lowercased()
            if ["yes", "y", "true", "on", "sí", "si"].contains(word) { return .bool(true) }
            if ["no", "n", "false", "off"].contains(word) { return .bool(false) }
            throw .invalidArgument("say yes or no")
        }
    }

    /// The value of one of `slots` that the slot labeller marks in the answer ("to Philip" → "Philip", "from my
    /// savings" → "savings"), else the whole answer.
    static func labelled(_ text: String, _ slots: [String], _ today: LocalDate) throws(TenderError) -> String {
        let values = try TextParser.values(in: text, context: ParseContext(today: today))
        var value = values.first { slots.contains($0.slot) }?.text ?? text
        // A leading "my" or "the" names no one ("my mom" → "mom").
        for article in ["my ", "the ", "My ", "The "] where value.hasPrefix(article) && value.count > article.count {
            value = String(value.dropFirst(article.count))
        }
        return value
    }
}

extension String {
    /// Without leading and trailing whitespace.
    func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
