// SPDX-License-Identifier: Apache-2.0
/// A public signing key as the store records it.
public struct StoredPublicKey: Equatable, Sendable {
    public let keyID: String
    public let publicKey: [UInt8]
    public let createdAtMilliseconds: Int64
    public let isActive: Bool

    public init(keyID: String, publicKey: [UInt8], createdAtMilliseconds: Int64, isActive: Bool) {
        self.keyID = keyID
        self.publicKey = publicKey
        self.createdAtMilliseconds = createdAtMilliseconds
        self.isActive = isActive
    }
}
