// SPDX-License-Identifier: Apache-2.0
/// The operations of the broker protocol (docs/broker.md). A connection
/// carries one session: `hello`, then either one `session` and its dialog
/// calls, or engine calls; the daemon answers each with `ok` or `error`, and
/// asks the client's conversation with `prompt` during `handle`.
public enum BrokerOp: String, Sendable, CaseIterable {
    // Client to daemon.
    case hello, session, resolve, answer, confirm, agree, handle
    case reply, cancel
    case directory, importDirectory, removeFromDirectory, setVocabulary, vocabulary, setSignedIn, signedIn
    case shortcuts, addShortcut, removeShortcut
    case ledgerEntries, verify, checkpoint, activeKey, rotateKey, audit
    case records, payment, mostRecentPayee, changeStatus, changedStatuses
    // Daemon to client.
    case ok, error, prompt
}
