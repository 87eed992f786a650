// SPDX-License-Identifier: Apache-2.0
/// The words of one language a reply is read with: yes, no, the ways to end a dialog, ordinals and
/// numbers, and the filler around them ("the second one", "la segunda"). Compared after
/// ``ReplyReader/normalized(_:)`` (lowercase, punctuation dropped, accents kept and also stripped).
struct ReplyWords: Sendable {
    /// Whole replies that mean yes; the first is how yes is said.
    let yes: [String]
    /// Whole replies that mean no; the first is how no is said.
    let no: [String]
    /// Whole replies that end the dialog.
    let cancel: [String]
    /// Words naming a position: "first" → 1, "last" → -1 (the last option).
    let ordinals: [String: Int]
    /// Words that carry nothing in a choice ("the", "one", "number").
    let filler: Set<String>

    static let english = ReplyWords(
        yes: ["yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "that's right", "thats right", "yes please",
              "do it", "go ahead", "confirm", "true", "affirmative", "of course", "please do"],
        no: ["no", "n", "nope", "nah", "no thanks", "no thank you", "false", "don't", "dont", "negative", "not that one", "wrong"],
        cancel: ["cancel", "stop", "never mind", "nevermind", "forget it", "quit", "exit", "abort", "cancel that", "cancel it",
                 "stop it", "no stop", "cancel please", "please cancel", "leave it"],
        ordinals: [
            "first": 1, "1st": 1, "one": 1, "second": 2, "2nd": 2, "two": 2, "third": 3, "3rd": 3, "three": 3, "fourth": 4, "4th": 4,
            "four": 4, "fifth": 5, "5th": 5, "five": 5, "sixth": 6, "6th": 6, "six": 6, "seventh": 7, "seven": 7, "eighth": 8, "eight": 8,
            "ninth": 9, "nine": 9, "tenth": 10, "ten": 10, "last": -1,
        ],
        filler: ["the", "number", "option", "please", "choice", "that", "is", "it", "i", "mean", "want", "to", "one", "person", "account", "my", "mine"])

    static let spanish = ReplyWords(
        yes: ["sí", "si", "vale", "claro", "claro que sí", "claro que si", "de acuerdo", "por supuesto", "correcto", "exacto", "sí por favor",
              "si por favor", "hazlo", "dale", "está bien", "esta bien", "ok", "okey", "sip", "afirmativo", "eso es", "yes"],
        no: ["no", "no gracias", "para nada", "negativo", "no es", "no ese no", "no esa no", "nop"],
        cancel: ["cancela", "cancelar", "cancélalo", "cancelalo", "cancélala", "cancelala", "olvídalo", "olvidalo", "olvídala", "olvidala",
                 "déjalo", "dejalo", "déjala", "dejala", "para", "detente", "basta", "no importa", "salir", "sal", "cancela eso", "cancel", "stop"],
        ordinals: [
            "primero": 1, "primera": 1, "primer": 1, "1º": 1, "1ª": 1, "uno": 1, "una": 1, "segundo": 2, "segunda": 2, "2º": 2, "2ª": 2, "dos": 2,
            "tercero": 3, "tercera": 3, "tercer": 3, "3º": 3, "3ª": 3, "tres": 3, "cuarto": 4, "cuarta": 4, "cuatro": 4, "quinto": 5,
            "quinta": 5, "cinco": 5, "sexto": 6, "sexta": 6, "seis": 6, "séptimo": 7, "séptima": 7, "siete": 7, "octavo": 8, "octava": 8,
            "ocho": 8, "noveno": 9, "novena": 9, "nueve": 9, "décimo": 10, "décima": 10, "diez": 10, "último": -1, "última": -1, "ultimo": -1,
            "ultima": -1,
        ],
        filler: ["el", "la", "lo", "los", "las", "número", "numero", "opción", "opcion", "por", "favor", "de", "a", "al", "que", "quiero",
                 "ese", "esa", "persona", "cuenta", "mi", "mis"])
}
