// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderBroker
import TenderCore

extension EngineFactory {
    /// A brokered engine (docs/broker.md): dialogs, directory and ledger in the daemon at `path`;
    /// understanding and the app vocabulary stay in process. A host's own ports cannot be brokered.
    static func brokered(_ configuration: EngineConfiguration, path: String, clock: any TenderClock) throws(TenderError) -> AssembledEngine {
        let client = BrokerClient(path: path, authentication: configuration.authenticationDocument)
        let vocabulary = try configuration.vocabularyFile.map { (path) throws(TenderError) in try readVocabulary(path) }
            ?? configuration.vocabulary
        let engine = Engine(
            directory: client, ledger: client, limits: configuration.limits, dialog: configuration.dialog, appVocabulary: vocabulary,
            today: { clock.today() })
        var assembled = AssembledEngine(engine: engine, directoryAdmin: client, ledgerAdmin: client, clock: clock)
        assembled.broker = client
        // Say hello now, so a missing daemon or a policy the daemon refuses fails here, not at the first dialog.
        try client.connect().close()
        return assembled
    }

    /// `TENDER_BROKER`, when set and not empty.
    public static func brokerFromEnvironment() -> String? {
        guard let value = getenv("TENDER_BROKER"), value.pointee != 0 else { return nil }
        return String(cString: value)
    }
}
