// SPDX-License-Identifier: Apache-2.0
/// A signed statement of the ledger's length and head hash. Verifying the
/// ledger against an earlier checkpoint detects truncation and rewritten history.
public enum Checkpoint {
    /// The payload for a ledger of `count` entries ending at `headHash`, naming (`firstKid`) the key that signed its first
    /// record when `firstKeyID` is given. The chain's hashes cover the records' payloads, not who signed them, and the first
    /// key is the only one no payload names: a checkpoint that does not name it is met by the same records signed again by
    /// another first key (one a database writer recorded as the store's first), which could then sign after them.
    public static func payload(count: Int64, headHash: String, createdAtMilliseconds: Int64, firstKeyID: String? = nil) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("checkpoint")), ("count", .number(String(count))), ("headHash", .string(headHash)),
            ("createdAt", .string(Timestamp.rfc3339(milliseconds: createdAtMilliseconds))),
        ]
        if let firstKeyID { members.append(("firstKid", .string(firstKeyID))) }
        return JSONWriter.string(.object(members))
    }
}
