// SPDX-License-Identifier: Apache-2.0
/// The payee of the most recent payment, which the ledger remembers so an
/// intent without a payee can suggest it (SiriKit's confirmationRequired).
public struct RecentPayee: Equatable, Sendable {
    public let contactID: String
    public let handleID: String

    public init(contactID: String, handleID: String) {
        self.contactID = contactID
        self.handleID = handleID
    }
}
