/// Spanish, for send payment and pay bill: the second language that shows the
/// design is not bound to English ("envía 50 dólares a Juan para la cena",
/// "paga mi factura de la luz"). Other Spanish requests are out of scope.
enum SpanishRules {
    static let sendVerbs: Set<String> = ["envía", "envia", "enviar", "envíale", "enviale", "manda", "mandar", "mándale", "mandale", "transfiere", "págale", "pagale"]
    static let payVerbs: Set<String> = ["paga", "pagar", "págame", "pagame", "pague", "abona"]
    static let billWords: Set<String> = ["factura", "recibo", "facturas", "recibos"]
    static let markers: Set<String> = sendVerbs.union(payVerbs).union(billWords).union([
        "dólares", "dolares", "quiero", "por", "favor", "mi", "luz", "agua", "para", "cuánto", "cuanto", "mis", "mañana", "hoy", "de", "la",
        "qué", "que", "el", "los", "las", "está", "hace", "tiempo", "dónde", "cómo", "es", "en", "y", "una", "un",
    ])
    static let stops: Set<String> = ["por", "para", "el", "la", "mañana", "hoy", "con", "de", "y", "en"]
    static let spanishRelations: Set<String> = ["mamá", "mama", "papá", "papa", "madre", "padre", "hermano", "hermana", "hijo", "hija", "esposa", "esposo", "amigo", "amiga", "jefe", "tía", "tío"]
    static let pronouns: Set<String> = ["mi", "ti", "él", "el", "ella", "usted", "ustedes", "ellos", "ellas", "nosotros", "su", "sus", "tu", "me", "te", "le", "les"]

    /// Whether the utterance is Spanish: two marker words, or one of the verbs.
    static func isSpanish(_ u: Utterance) -> Bool {
        let hits = u.words.filter { markers.contains($0) }
        return hits.count >= 2 || hits.contains { sendVerbs.contains($0) || payVerbs.contains($0) || $0 == "factura" }
    }

    /// The intent, or nil (out of scope).
    static func parse(_ u: Utterance, _ finder: PhraseFinder, _ context: ParseContext) throws(TenderError) -> JSONValue? {
        let words = u.words
        if u.hasAny(billWords), u.hasAny(payVerbs) || u.hasAny(sendVerbs), !EnglishRules.isNegated(words) {
            var members: [(key: String, value: JSONValue)] = [("intent", .string("pay_bill"))]
            if let org = try finder.organization() { members.append(("billPayee", .object([("name", .string(org.name))]))) }
            if let money = u.amount { members.append(("transactionAmount", .object([("amount", money.json)]))) }
            if u.has("mínimo") || u.has("minimo") {
                members.append(("transactionAmount", .object([("amountType", .string("minimumDue"))])))
            }
            if let day = u.dates.compactMap(\.day).first, day >= context.today { members.append(("transactionScheduledDate", day.json)) }
            if let type = words.compactMap({ SlotFiller.billKinds[$0] }).first { members.append(("billType", .string(type.rawValue))) }
            return .object(Array(members.reduce(into: [(key: String, value: JSONValue)]()) { kept, member in
                if !kept.contains(where: { $0.key == member.key }) { kept.append(member) }
            }))
        }
        // An order: the verb first (after "por favor", "quiero"), no negation, the amount and the person after it.
        guard let verb = Openings.verbIndex(words), sendVerbs.contains(words[verb]) || payVerbs.contains(words[verb]),
            // "de ahorros a cheques": from one account to another is a transfer, not a send.
            !words[verb...].contains(where: { $0 == "de" || $0 == "desde" }) || words.contains("para"),
            !EnglishRules.isNegated(words), let found = u.amounts.first(where: \.explicit) ?? u.amounts.first, found.tokens.lowerBound > verb
        else { return nil }
        let amount = found.money
        var name: String?
        if let person = try finder.person(), person.range.lowerBound > verb, found.explicit || EnglishRules.bareNumberIsTheAmount(found, words) {
            name = person.name
        } else if found.explicit, let at = words.indices.first(where: { $0 > verb && words[$0] == "a" }), at + 2 < words.count, words[at + 1] == "mi",
            EnglishRules.relations.contains(words[at + 2]) || spanishRelations.contains(words[at + 2])
        {
            name = words[at + 2]
        } else if found.explicit, let at = words.indices.first(where: { $0 > verb && words[$0] == "a" }),
            let candidate = u.phrase(after: at, limit: 3, stops: stops),
            candidate.text.split(separator: " ").allSatisfy({ !pronouns.contains(String($0)) })
        {
            // Anyone the directory does not know needs a currency said ("3 mensajes a Juan" sends nothing).
            name = candidate.text
        }
        guard let name else { return nil }
        var members: [(key: String, value: JSONValue)] = [
            ("intent", .string("send_payment")), ("payee", .object([("name", .string(name))])), ("currencyAmount", amount.json),
        ]
        if let at = words.lastIndex(of: "para"), let note = u.phrase(after: at, limit: 8, stops: ["mañana", "hoy", "con"]) {
            members.append(("note", .string(EnglishRules.withoutArticle(note.text))))
        }
        return .object(members)
    }
}
