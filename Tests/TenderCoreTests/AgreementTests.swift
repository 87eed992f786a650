// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// The confirmation question: handle moves money only after the person said yes.
@Suite struct AgreementTests {
    private func ready(_ intent: String = #"{"intent":"send_payment","payee":{"id":"tim-cook","handle":"mobile"},"currencyAmount":{"amount":"20","currency":"USD"}}"#)
        throws -> (DialogSession, FakeDirectory)
    {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(Fixtures.directoryJSON)))
        let engine = Engine(directory: directory, ledger: FakeLedger(directory: directory), today: { Fixtures.today })
        let session = try Fixtures.session(intent, engine: engine)
        _ = try session.resolve()
        let (code, _) = try session.confirm()
        #expect(code == .ready)
        return (session, directory)
    }

    @Test func confirmAsksInWordsWithAmountPayeeAccountAndFee() throws {
        let (session, _) = try ready()
        let question = try #require(session.confirmationQuestion)
        #expect(question.hasPrefix("Send $20 to Tim Cook from "))
        #expect(question.hasSuffix("? There is no fee."))
    }

    @Test func handleWithoutYesIsRefusedAndPaysNothing() throws {
        let (session, directory) = try ready()
        let before = directory.balance("checking")
        do {
            _ = try session.handle()
            Issue.record("handle paid without the person's yes")
        } catch {
            guard case .notAgreed = error else { Issue.record("expected notAgreed, got \(error)"); return }
        }
        #expect(directory.balance("checking") == before)
        try session.agree(true)
        #expect(try session.handle().code == .success)
        #expect(directory.balance("checking") != before)
    }

    @Test func noEndsTheDialogAndPaysNothing() throws {
        let (session, directory) = try ready()
        let before = directory.balance("checking")
        try session.agree(false)
        do {
            _ = try session.handle()
            Issue.record("handle paid after a no")
        } catch {
            guard case .dialogEnded = error else { Issue.record("expected dialogEnded, got \(error)"); return }
        }
        #expect(directory.balance("checking") == before)
    }

    @Test func agreeBeforeConfirmIsWrongState() throws {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(Fixtures.directoryJSON)))
        let engine = Engine(directory: directory, ledger: FakeLedger(directory: directory), today: { Fixtures.today })
        let session = try Fixtures.session(#"{"intent":"send_payment","payee":{"id":"tim-cook","handle":"mobile"},"currencyAmount":{"amount":"20","currency":"USD"}}"#, engine: engine)
        do {
            try session.agree(true)
            Issue.record("agree before confirm was accepted")
        } catch {
            guard case .wrongState = error else { Issue.record("expected wrongState, got \(error)"); return }
        }
        #expect(session.confirmationQuestion == nil)
    }

    @Test func aNewResolveForgetsTheYes() throws {
        let (session, _) = try ready()
        try session.agree(true)
        _ = try session.resolve()
        _ = try session.confirm()
        do {
            _ = try session.handle()
            Issue.record("handle used a yes given before the last confirm")
        } catch {
            guard case .notAgreed = error else { Issue.record("expected notAgreed, got \(error)"); return }
        }
    }

    @Test func aTransferAsksWithBothAccountsAndTheFee() throws {
        let (engine, _, _) = try DomainFixtures.engine(dialog: #"{"transferFee": {"USD": "0.50"}, "requireAgreement": true}"#)
        let s = try Fixtures.session(
            #"{"intent":"transfer_money","fromAccount":{"nickname":"checking"},"toAccount":{"nickname":"savings"},"transactionAmount":{"amount":{"amount":"200","currency":"USD"}}}"#,
            engine: engine)
        let (code, response) = try s.confirm()
        #expect(code == .ready)
        let question = try #require(s.confirmationQuestion)
        #expect(question.hasPrefix("Transfer $200 from ") && question.hasSuffix(" The fee is $0.50."))
        #expect(response["question"] == .string(question))
    }
}
