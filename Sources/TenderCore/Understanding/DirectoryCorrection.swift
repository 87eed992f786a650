/// What the person's directory knows, applied after the models: the models
/// never saw the person's own names, the directory has them. A name the
/// labeller marked as a person that is one of the person's accounts or bill
/// payees (and no contact) is that account or payee; the intent follows.
/// Pure; reads the directory through the phrase finder.
enum DirectoryCorrection {
    /// `spans` with each such person span relabelled: an account as to_account, a bill payee as org.
    static func spans(_ spans: [TaggedSpan], _ finder: PhraseFinder) throws(TenderError) -> [TaggedSpan] {
        guard finder.directory != nil, spans.contains(where: { $0.slot == "person" }) else { return spans }
        let accounts = try finder.accounts()
        let organization = try finder.organization()
        let contact = try finder.person()
        return spans.map { span in
            guard span.slot == "person", !(contact.map { $0.range.overlaps(span.tokens) } ?? false) else { return span }
            if accounts.contains(where: { $0.range.overlaps(span.tokens) }) { return TaggedSpan(slot: "to_account", tokens: span.tokens) }
            if let organization, organization.range.overlaps(span.tokens) { return TaggedSpan(slot: "org", tokens: span.tokens) }
            return span
        }
    }

    /// The intent: a send or transfer whose payee is one of the person's accounts is a transfer; a send whose
    /// payee is a bill payee is a bill payment; an out-of-scope question with "my" that names one of the
    /// person's accounts ("what's my Safe-to-Spend?") is the classifier's best account search, if that is its
    /// best intent.
    static func intent(
        _ decision: IntentModel.Decision, labelled: [TaggedSpan], corrected: [TaggedSpan], _ u: Utterance, _ finder: PhraseFinder
    ) throws(TenderError) -> String {
        let became = Set(zip(labelled, corrected).filter { $0.0.slot != $0.1.slot }.map(\.1.slot))
        let intent = decision.intent
        if (intent == "send_payment" || intent == "transfer_money") && became.contains("to_account") { return "transfer_money" }
        if intent == "send_payment" && became.contains("org") { return "pay_bill" }
        if intent == "out_of_scope", decision.bestIntent == "search_for_accounts", u.hasAny(["my", "mi", "mis"]),
            try !finder.accounts().isEmpty
        {
            return decision.bestIntent
        }
        return intent
    }
}
