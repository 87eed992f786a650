// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// A submission as its submitter hands it to the group commit, with what it computed before the write lock:
/// the digest its row keeps for the fingerprint (``StoredFingerprint``) and, when the store was quiet, its record
/// signed already (``PreparedRecord``), or, on a store across a network, whether its record is to be signed while its
/// batch's first round trip travels (``SQLiteStore/preparesInFlight``).
struct QueuedSubmission: Sendable {
    let submission: PaymentSubmission
    let fingerprintDigest: [UInt8]
    let prepared: PreparedRecord?
    /// The store was quiet when it was submitted, and prepares its record in the batch's transaction: only the batch's
    /// first submission does (the others' records go after it).
    var preparesInFlight = false
}
