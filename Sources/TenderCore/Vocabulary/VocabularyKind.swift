// SPDX-License-Identifier: Apache-2.0
/// What a user vocabulary names, as SiriKit's `INVocabularyStringType` does.
public enum VocabularyKind: String, Sendable, CaseIterable {
    case contactName, paymentOrganizationName, accountNickname
}
