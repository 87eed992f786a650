// SPDX-License-Identifier: Apache-2.0
/// Amounts and days written the way a language says them: "$1,250.50" / "1.250,50 $",
/// "March 5" / "5 de marzo" (with the year when it is not this year's). Integer arithmetic only.
enum SpokenFormat {
    /// `money` in `language`'s way: English "$50", "$84.20", "€3", "5000 JPY"; Spanish "50 $", "84,20 $", "3 €", "5000 JPY".
    /// Whole amounts drop their zero cents; thousands are grouped from 10,000 (English also from 1,000).
    static func money(_ money: Money, _ language: SpeechLanguage) -> String {
        var whole = money.decimalString
        var fraction = ""
        if let point = whole.firstIndex(of: ".") {
            fraction = String(whole[whole.index(after: point)...])
            whole = String(whole[..<point])
            if fraction.allSatisfy({ $0 == "0" }) { fraction = "" }
        }
        let symbol: String? = ["USD": "$", "EUR": "€", "GBP": "£"][money.currency.code]
        switch language {
        case .english:
            let digits = grouped(whole, by: ",", from: 4) + (fraction.isEmpty ? "" : "." + fraction)
            return symbol.map { $0 + digits } ?? "\(digits) \(money.currency.code)"
        case .spanish:
            let digits = grouped(whole, by: ".", from: 5) + (fraction.isEmpty ? "" : "," + fraction)
            return "\(digits) \(symbol ?? money.currency.code)"
        }
    }

    /// Digits grouped by three with `separator` when there are at least `from` of them.
    private static func grouped(_ digits: String, by separator: String, from: Int) -> String {
        guard digits.count >= from else { return digits }
        var result = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { result += separator }
            result.append(digit)
        }
        return result
    }

    static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let spanishMonths = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"]

    /// `day` as said: "March 5" / "5 de marzo"; "March 5, 2027" / "5 de marzo de 2027" outside `today`'s year.
    static func day(_ day: LocalDate, _ language: SpeechLanguage, today: LocalDate) -> String {
        let sameYear = day.year == today.year
        switch language {
        case .english: return "\(englishMonths[day.month - 1]) \(day.day)" + (sameYear ? "" : ", \(day.year)")
        case .spanish: return "\(day.day) de \(spanishMonths[day.month - 1])" + (sameYear ? "" : " de \(day.year)")
        }
    }

    /// An enum case's name as words: "carLoan" → "car loan".
    static func words(ofCase name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result += " " }
            result += character.lowercased()
        }
        return result
    }
}
