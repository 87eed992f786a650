/// The words people put before an order ("please", "so can you", "I'd like
/// to", "go ahead and", "por favor"), so the order's verb can be found: the
/// first word after them.
enum Openings {
    /// Phrases that may open an order, longest first; a lone "I" or "you" is no opening ("I send Tim $20 every month" is a statement).
    static let phrases: [[String]] = [
        ["i", "want", "you", "to"], ["i", "need", "you", "to"], ["i", "would", "like", "to"], ["i", "d", "like", "to"], ["i", "want", "to"],
        ["i", "need", "to"], ["i", "have", "to"], ["i", "got", "to"], ["i", "must"], ["i", "wanna"], ["i", "d", "like"], ["i", "need"], ["i", "want"],
        ["can", "you"], ["could", "you"], ["would", "you"], ["will", "you"], ["go", "ahead", "and"], ["let", "s"], ["help", "me"],
        ["por", "favor"], ["puedes"], ["podrías"], ["podrias"], ["quiero"], ["please"], ["pls"], ["so"], ["um"], ["uh"], ["hi"], ["hey"],
        ["hello"], ["ok"], ["okay"], ["alright"], ["just"], ["now"], ["quickly"], ["tender"], ["hola"], ["oye"], ["then"], ["and"],
    ]

    /// The index of the order's verb: the first word after every opening phrase.
    static func verbIndex(_ words: [String]) -> Int? {
        var at = 0
        var moved = true
        while moved, at < words.count {
            moved = false
            for phrase in phrases where Phrase.starts(phrase, in: words, at: at) {
                at += phrase.count
                moved = true
                break
            }
        }
        return at < words.count ? at : nil
    }
}
