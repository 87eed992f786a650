// SPDX-License-Identifier: Apache-2.0
/// Which language an utterance is in, for the result's `language` member:
/// Spanish when it has two common Spanish words, or one Spanish payment verb or
/// bill word; else English. Only a label: the same models read both languages.
enum Language {
    static let spanishVerbs: Set<String> = [
        "envía", "envia", "enviar", "envíale", "enviale", "manda", "mandar", "mándale", "mandale", "transfiere", "transferir", "págale",
        "pagale", "paga", "pagar", "págame", "pagame", "pague", "abona", "pídele", "pidele", "pide", "pídeme", "pideme", "pedir", "cobra",
        "cobrar", "cóbrame", "cobrame", "mándame", "mandame", "envíame", "enviame", "transfiéreme", "transfiereme", "solicita", "cóbrale",
        "cobrale", "factura",
        "recibo", "facturas", "recibos", "saldo", "cuánto", "cuánta", "muéstrame", "muestrame",
    ]
    static let spanishMarkers: Set<String> = spanishVerbs.union([
        "dólares", "dolares", "quiero", "por", "favor", "mi", "luz", "agua", "para", "cuanto", "mis", "mañana", "hoy", "de", "la", "qué",
        "que", "el", "los", "las", "está", "hace", "tiempo", "dónde", "cómo", "es", "en", "y", "una", "un", "le", "tengo", "cuál", "cual",
    ])

    /// "es" or "en".
    static func of(_ u: Utterance) -> String {
        let hits = u.words.filter { spanishMarkers.contains($0) }
        return hits.count >= 2 || hits.contains(where: spanishVerbs.contains) ? "es" : "en"
    }
}
