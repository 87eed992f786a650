// SPDX-License-Identifier: Apache-2.0
/// A signed statement of the ledger's length and head hash. Verifying the
/// ledger against an earlier checkpoint detects truncation and rewritten history.
public enum Checkpoint {
    /// The payload for a ledger of `count` entries ending at `headHash`.
    public static func payload(count: Int64, headHash: String, createdAtMilliseconds: Int64) -> String {
        JSONWriter.string(.object([
            ("type", .string("checkpoint")), ("count", .number(String(count))), ("headHash", .string(headHash)),
            ("createdAt", .string(Timestamp.rfc3339(milliseconds: createdAtMilliseconds))),
        ]))
    }
}
