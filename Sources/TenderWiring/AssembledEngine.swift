// SPDX-License-Identifier: Apache-2.0
import TenderBroker
import TenderCore

/// An engine and the ports its host administers it through. The C API and
/// the CLI reach the store only through these ports.
public struct AssembledEngine: Sendable {
    /// The engine sessions run on.
    public let engine: Engine
    /// The directory the directory calls administer (the host's for an engine with a host).
    public let directoryAdmin: any DirectoryAdmin
    /// The ledger, keys and audit log.
    public let ledgerAdmin: any LedgerAdmin
    /// The clock the engine, its gate and its store read.
    public let clock: any TenderClock
    /// The broker a brokered engine's dialogs run in (nil: in process).
    public var broker: BrokerClient?

    /// A dialog about the host's JSON `intent`: in the daemon for a brokered engine, else in process.
    public func session(intent: JSONValue) throws(TenderError) -> any PaymentDialog {
        if let broker { return try BrokeredSession(client: broker, intent: intent) }
        return try DialogSession(engine: engine, json: intent)
    }

    /// What parsing text may look at: the engine's directory, the shortcuts, the app vocabulary, today, the custom intents.
    public func parseContext() throws(TenderError) -> ParseContext {
        ParseContext(
            directory: engine.directory, shortcuts: try directoryAdmin.shortcuts(), vocabulary: engine.appVocabulary, today: engine.today(),
            customIntents: engine.customIntents.matcher)
    }
}
