// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import TenderCore
import TenderStore
import TenderWiring

/// What the confirm-reuse suites share: an engine on a SQLite home with $100 in checking and Tim Cook, no password
/// asked and no agreement needed, and a session sending him an amount.
protocol ConfirmReadingTesting {}

extension ConfirmReadingTesting {
    /// The directory imported into each home.
    static var directory: String {
        """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                       "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true}]}
        """
    }

    /// An engine on `home`'s "home" folder and its store, the directory imported unless `importing` is false.
    func engine(_ home: TemporaryHome, importing: Bool = true) throws -> (Engine, SQLiteStore) {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        var dialog = DialogOptions()
        dialog.requireAgreement = false
        let store = try EngineFactory.openStore(home: home.path + "/home", access: .readWrite(newLedger: false))
        let assembled = try EngineFactory.assemble(EngineConfiguration(home: home.path + "/home", authentication: policy, dialog: dialog), store: store)
        if importing { try assembled.directoryAdmin.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory))) }
        return (assembled.engine, store)
    }

    /// A session sending `amount` dollars to Tim Cook.
    func session(_ engine: Engine, amount: String) throws -> DialogSession {
        try DialogSession(
            engine: engine,
            json: try JSONParser.parse(#"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"\#(amount)","currency":"USD"}}"#))
    }
}
