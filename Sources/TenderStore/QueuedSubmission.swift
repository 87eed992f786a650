// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A submission as its submitter hands it to the group commit, with what it computed before the write lock:
/// the digest its row keeps for the fingerprint (``StoredFingerprint``) and, when the store was quiet, its record
/// signed already (``PreparedRecord``).
struct QueuedSubmission: Sendable {
    let submission: PaymentSubmission
    let fingerprintDigest: [UInt8]
    let prepared: PreparedRecord?
}
