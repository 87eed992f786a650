// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The seeds' people and a checking account, shared by the core tests.
enum Fixtures {
    static let directoryJSON = """
        {"contacts": [
          {"id": "john-appleseed", "displayName": "John Appleseed",
           "handles": [{"id": "ja-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0100"}]},
          {"id": "john-baily", "displayName": "John Baily",
           "handles": [{"id": "jb-home", "label": "home", "type": "phone", "value": "1"},
                       {"id": "jb-mobile", "label": "mobile", "type": "phone", "value": "2"},
                       {"id": "jb-work", "label": "work", "type": "email", "value": "jb@example.com"}]},
          {"id": "tim-cook", "displayName": "Tim Cook",
           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]},
          {"id": "no-handles", "displayName": "Hermit Nohandle"}
        ],
        "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                      "balance": {"amount": "1000.00", "currency": "USD"}, "default": true}]}
        """

    /// Dialog options for tests about other things than the confirmation
    /// question: the host asks the person itself (AgreementTests covers the default).
    static var personAgrees: DialogOptions {
        var options = DialogOptions()
        options.requireAgreement = false
        return options
    }

    static func engine(limits: PaymentLimits = .standard) throws -> (Engine, FakeDirectory, FakeLedger) {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(directoryJSON)))
        let ledger = FakeLedger(directory: directory)
        return (Engine(directory: directory, ledger: ledger, limits: limits, dialog: personAgrees, today: { today }), directory, ledger)
    }

    static func session(_ intentJSON: String, engine: Engine) throws -> DialogSession {
        try DialogSession(engine: engine, json: try JSONParser.parse(intentJSON))
    }

    /// The day the core tests live on.
    static let today = try! LocalDate(year: 2026, month: 11, day: 22)
}
