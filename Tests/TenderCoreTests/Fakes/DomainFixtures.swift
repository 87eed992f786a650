// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The seeds' whole domain: people, the Electric Company at two addresses,
/// checking, savings, Safe-to-Spend and NestEgg, this month's bills.
enum DomainFixtures {
    static let directoryJSON = """
        {"contacts": [
          {"id": "john-appleseed", "displayName": "John Appleseed",
           "handles": [{"id": "ja-mobile", "label": "mobile", "type": "phone", "value": "1"}]},
          {"id": "john-baily", "displayName": "John Baily",
           "handles": [{"id": "jb-home", "label": "home", "type": "phone", "value": "2"},
                       {"id": "jb-mobile", "label": "mobile", "type": "phone", "value": "3"}]},
          {"id": "phil-1", "displayName": "Phil Schiller", "handles": [{"id": "p1", "label": "work", "type": "email", "value": "a@x"}]},
          {"id": "phil-2", "displayName": "Phil Schiller", "handles": [{"id": "p2", "label": "home", "type": "email", "value": "b@x"}]}
        ],
        "accounts": [
          {"id": "checking", "nickname": "Checking", "organizationName": "Simple Bank", "type": "checking",
           "balance": {"amount": "1000.00", "currency": "USD"}, "default": true},
          {"id": "savings", "nickname": "Savings", "type": "savings", "balance": {"amount": "50.00", "currency": "USD"}},
          {"id": "safe", "nickname": "Safe-to-Spend", "type": "checking", "balance": {"amount": "412.35", "currency": "USD"}},
          {"id": "nest", "nickname": "NestEgg", "type": "saving", "balance": {"amount": "9000.00", "currency": "USD"}},
          {"id": "miles", "nickname": "Travel Card", "type": "credit", "balance": {"amount": "0", "currency": "USD"}, "miles": 42000}
        ],
        "billPayees": [
          {"id": "ec-main", "organizationName": "Electric Company", "nickname": "12 Main Street"},
          {"id": "ec-lake", "organizationName": "Electric Company", "nickname": "4 Lake Road"},
          {"id": "water", "organizationName": "City Water"}
        ],
        "bills": [
          {"id": "b-main", "billPayee": "ec-main", "type": "electricity", "status": "unpaid", "amountDue": {"amount": "84.20", "currency": "USD"},
           "minimumDue": {"amount": "25.00", "currency": "USD"}, "dueDate": "2026-11-30"},
          {"id": "b-lake", "billPayee": "ec-lake", "type": "electricity", "status": "unpaid", "amountDue": {"amount": "61.75", "currency": "USD"},
           "dueDate": "2026-11-28"},
          {"id": "b-water", "billPayee": "water", "type": "water", "status": "completed", "amountDue": {"amount": "30.00", "currency": "USD"},
           "dueDate": "2026-10-15", "paymentDate": "2026-10-10"}
        ]}
        """

    static func engine(dialog: String = "{}", vocabulary: String = "{}") throws -> (Engine, FakeDirectory, FakeLedger) {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(directoryJSON)))
        let ledger = FakeLedger(directory: directory)
        var options = try DialogOptions(json: try JSONParser.parse(dialog))
        if !dialog.contains("requireAgreement") { options.requireAgreement = false }
        let engine = Engine(
            directory: directory, ledger: ledger, dialog: options,
            appVocabulary: try AppVocabulary(json: try JSONParser.parse(vocabulary)), today: { Fixtures.today })
        return (engine, directory, ledger)
    }
}
