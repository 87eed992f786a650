// SPDX-License-Identifier: Apache-2.0
/// A run of tokens the slot labeller marked as one value: `slot` is one of
/// person, amount, date, from_account, to_account, account, org, bill_type,
/// note; `tokens` the utterance's token range.
public struct TaggedSpan: Equatable, Sendable {
    public let slot: String
    public let tokens: Range<Int>

    public init(slot: String, tokens: Range<Int>) {
        self.slot = slot
        self.tokens = tokens
    }
}
