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
    /// payee is a bill payee is a bill payment.
    static func intent(_ decision: IntentModel.Decision, labelled: [TaggedSpan], corrected: [TaggedSpan]) -> String {
        let became = Set(corrected.filter { span in !labelled.contains(span) }.map(\.slot))
        let intent = decision.intent
        if intent == "send_payment" || intent == "transfer_money", became.contains("to_account") || became.contains("from_account") {
            return "transfer_money"
        }
        if intent == "send_payment" && became.contains("org") { return "pay_bill" }
        return intent
    }
}
