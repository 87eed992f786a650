// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// The ``LedgerCrypto`` port on OpenSSL: SHA-256, and Ed25519 verification
/// with each public key parsed once and batches checked on every core. Thread-safe.
public final class OpenSSLLedgerCrypto: LedgerCrypto {
    private let publicKeys = PthreadLocked<[[UInt8]: Ed25519PublicKey]>([:])

    /// A crypto port with an empty cache of parsed public keys.
    public init() {}

    public func sha256(_ bytes: [UInt8]) throws(TenderError) -> [UInt8] { try SHA256.hash(bytes) }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        let cached = publicKeys.withLock { $0[publicKey] }
        guard let key = cached ?? (try? Ed25519PublicKey(bytes: publicKey)) else { return false }
        if cached == nil { publicKeys.withLock { $0[publicKey] = key } }
        return key.isValidSignature(signature, of: message)
    }

    public func firstInvalid(_ checks: [SignatureCheck]) -> Int? {
        let firstBad = LowestIndex()
        WorkerPool.shared.forEach(checks.count) { [self] index in
            guard index < firstBad.value else { return }
            let check = checks[index]
            if !isValidSignature(check.signature, of: check.message, publicKey: check.publicKey) { firstBad.lower(to: index) }
        }
        let found = firstBad.value
        return found == Int.max ? nil : found
    }
}

/// The lowest index reported by several threads.
private final class LowestIndex: Sendable {
    private let lowest = Atomic<Int>(Int.max)
    var value: Int { lowest.load(ordering: .sequentiallyConsistent) }
    func lower(to index: Int) { _ = lowest.min(index, ordering: .sequentiallyConsistent) }
}
