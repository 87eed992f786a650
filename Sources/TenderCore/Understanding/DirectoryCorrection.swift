// SPDX-License-Identifier: Apache-2.0
/// What the person's directory knows, applied after the models: the models
/// never saw the person's own names, the directory has them. A name the
/// labeller marked as a person that is one of the person's accounts or bill
/// payees (and no contact) is that account or payee; the intent follows.
/// Pure; reads the directory through the phrase finder.
enum DirectoryCorrection {
    /// `spans` with each such person span relabelled: the directory's account as one from_account span (after
    /// "from", "de" or "desde") or to_account span, the bill payee as one org span.
    static func spans(_ spans: [TaggedSpan], _ finder: PhraseFinder) throws(TenderError) -> [TaggedSpan] {
        guard finder.directory != nil, spans.contains(where: { $0.slot == "person" }) else { return spans }
        let contact = try finder.person()
        var named: [TaggedSpan] = []
        for account in try finder.accounts() {
            let before = account.range.lowerBound > 0 ? finder.utterance.words[account.range.lowerBound - 1] : ""
            named.append(TaggedSpan(slot: ["from", "de", "desde"].contains(before) ? "from_account" : "to_account", tokens: account.range))
        }
        if let organization = try finder.organization() { named.append(TaggedSpan(slot: "org", tokens: organization.range)) }
        var out: [TaggedSpan] = []
        for span in spans {
            guard span.slot == "person", !(contact.map { $0.range.overlaps(span.tokens) } ?? false),
                let name = named.first(where: { $0.tokens.overlaps(span.tokens) })
            else {
                out.append(span)
                continue
            }
            if !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// The intent: a send or transfer whose payee is one of the person's accounts is a transfer; a send whose
    /// payee is a bill payee is a bill payment. Where the model leaves open whether the money goes to someone
    /// else or between the person's own accounts (``IntentModel/Decision/moneyGoesEitherWay``), what the text
    /// names decides: an account of the person's (or an account word) makes it a transfer, a person (a contact,
    /// or any name the labeller marked) a send; when it names neither, `ask` is true and the dialog asks
    /// (``DestinationQuestion``).
    static func intent(
        _ decision: IntentModel.Decision, labelled: [TaggedSpan], corrected: [TaggedSpan], _ finder: PhraseFinder
    ) throws(TenderError) -> (intent: String, ask: Bool) {
        let became = Set(corrected.filter { span in !labelled.contains(span) }.map(\.slot))
        let intent = decision.intent
        if intent == "send_payment" || intent == "transfer_money", became.contains("to_account") || became.contains("from_account") {
            return ("transfer_money", false)
        }
        if intent == "send_payment" && became.contains("org") { return ("pay_bill", false) }
        guard decision.moneyGoesEitherWay else { return (intent, false) }
        let slots = Set(corrected.map(\.slot))
        let ownAccounts = try finder.accounts()
        if !slots.isDisjoint(with: ["from_account", "to_account", "account"]) || !ownAccounts.isEmpty { return ("transfer_money", false) }
        let contact = try finder.person()
        if slots.contains("person") || contact != nil { return ("send_payment", false) }
        return (intent, true)
    }
}
