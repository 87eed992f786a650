// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The ledger head a store's last batch left, and the signer it used: where the next payment's record is expected
/// to go when nothing else writes first (``PreparedRecord``). A hint only: a batch checks it against the head it reads.
struct ExpectedHead: Sendable {
    let sequence: Int64
    let hash: String
    let signer: any RecordSigner
}
