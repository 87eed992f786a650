/// What a session asked about one parameter in its last resolve, and so
/// which answers it accepts for it.
enum OpenQuestion: Equatable, Sendable {
    /// Choose one of these contact ids.
    case choosePerson([String])
    /// Choose one of these handle ids of the chosen contact.
    case chooseHandle([String])
    /// Say yes or no to this suggested payee.
    case confirmPayee(RecentPayee)
    /// Supply a (new) value.
    case supplyValue
}
