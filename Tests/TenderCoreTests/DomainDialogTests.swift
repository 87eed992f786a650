// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct DomainDialogTests {
    private func result(_ results: [ParameterResolution], _ parameter: String) -> ResolutionResult? {
        results.first { $0.parameter == parameter }?.result
    }

    private func session(_ json: String, _ engine: Engine) throws -> DialogSession { try Fixtures.session(json, engine: engine) }

    @Test func theElectricCompanyAtTwoAddresses() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let s = try session(#"{"intent":"pay_bill","billPayee":{"name":"Electric Company"}}"#, engine)
        var results = try s.resolve()
        #expect(result(results, "billPayee") == .disambiguation(prompt: "billPayee", options: [
            ResolutionOption(id: "ec-main", label: "Electric Company, 12 Main Street"), ResolutionOption(id: "ec-lake", label: "Electric Company, 4 Lake Road"),
        ]))
        #expect(result(results, "fromAccount") == .needsValue)  // no bill yet, so no currency to pick a default from
        try s.answer(Answer(parameter: "billPayee", kind: .choose("ec-lake")))
        results = try s.resolve()
        guard case let .confirmationRequired(suggested) = result(results, "transactionAmount") else { Issue.record("no suggestion"); return }
        #expect(suggested["amountType"] == .string("amountDue") && suggested["amount"]?["amount"] == .string("61.75"))
        #expect(result(results, "fromAccount") == .success(try JSONParser.parse(#"{"id":"checking","nickname":"Checking","type":"checking"}"#)))
        try s.answer(Answer(parameter: "transactionAmount", kind: .confirm(true)))
        #expect(try s.resolve().allSatisfy(\.result.isResolved))
        let (code, response) = try s.confirm()
        #expect(code == .ready)
        #expect(response["billDetails"]?["lateFee"] == nil && response["billDetails"]?["dueDate"] == .string("2026-11-28"))
        let outcome = try s.handle()
        #expect(outcome.code == .success)
        let record = try JSONParser.parse(try #require(outcome.record).json)
        #expect(record["intent"] == .string("pay_bill") && record["status"] == .string("completed"))
        #expect(record["paymentMethod"]?["type"] == .string("checking"))
        #expect(directory.balance("checking") == Int64(93_825))
        #expect(try directory.bills().first { $0.id == "b-lake" }?.status == .completed)
        #expect(try directory.bills().first { $0.id == "b-lake" }?.paymentDate == Fixtures.today)
    }

    @Test func theMinimumDueAndANicknameNarrowTheBill() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let s = try session(
            #"{"intent":"pay_bill","billPayee":{"name":"electric","nickname":"main street"},"transactionAmount":{"amountType":"minimumDue"}}"#, engine)
        let results = try s.resolve()
        guard case let .success(payee) = result(results, "billPayee"), case let .success(amount) = result(results, "transactionAmount") else {
            Issue.record("unresolved"); return
        }
        #expect(payee["id"] == .string("ec-main") && amount["amount"]?["amount"] == .string("25.00"))
        let lake = try session(#"{"intent":"pay_bill","billPayee":{"id":"ec-lake"},"transactionAmount":{"amountType":"minimumDue"}}"#, engine)
        #expect(result(try lake.resolve(), "transactionAmount") == .unsupported(reason: "amountTypeNotStated"))
    }

    @Test func withoutAPayeeTheUnpaidOnesAreOffered() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        guard case let .disambiguation(_, options) = result(try session(#"{"intent":"pay_bill"}"#, engine).resolve(), "billPayee") else {
            Issue.record("expected the two unpaid payees"); return
        }
        #expect(options.map(\.id) == ["ec-main", "ec-lake"])
    }

    @Test func aPersonNotSignedInCannotPay() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        directory.signedIn.store(false, ordering: .relaxed)
        let s = try session(#"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionAmount":{"amountType":"amountDue"}}"#, engine)
        #expect(try s.resolve().allSatisfy(\.result.isResolved))
        #expect(try s.confirm().code == .failureCredentialsUnverified)
        #expect(throws: TenderError.self) { try s.handle() }
        directory.signedIn.store(true, ordering: .relaxed)
        #expect(try s.confirm().code == .ready)
    }

    @Test func aTransferMovesBothBalancesAndChargesTheFee() throws {
        let (engine, directory, _) = try DomainFixtures.engine(dialog: #"{"transferFee": {"USD": "0.50"}}"#)
        let s = try session(
            #"{"intent":"transfer_money","fromAccount":{"nickname":"checking"},"toAccount":{"nickname":"savings"},"transactionAmount":{"amount":{"amount":"200","currency":"USD"}}}"#,
            engine)
        let (code, response) = try s.confirm()
        #expect(code == .ready && response["fee"]?["amount"] == .string("0.50"))
        let record = try JSONParser.parse(try #require(try s.handle().record).json)
        #expect(record["fee"]?["amount"] == .string("0.50"))
        #expect(directory.balance("checking") == Int64(79_950) && directory.balance("savings") == Int64(25_000))
    }

    @Test func transfersCheckFundsAndRefuseTheSameAccount() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let broke = try session(
            #"{"intent":"transfer_money","fromAccount":{"id":"savings"},"toAccount":{"id":"checking"},"transactionAmount":{"amount":{"amount":"60","currency":"USD"}}}"#,
            engine)
        #expect(try broke.confirm().code == .failureInsufficientFunds)
        let same = try session(#"{"intent":"transfer_money","fromAccount":{"id":"savings"},"toAccount":{"id":"savings"}}"#, engine)
        #expect(result(try same.resolve(), "toAccount") == .unsupported(reason: "sameAccount"))
    }

    @Test func balancesBySpokenNicknameAndType() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let safe = try session(#"{"intent":"search_for_accounts","accountNickname":"safe to spend"}"#, engine)
        #expect(result(try safe.resolve(), "accountNickname") == .success(.string("Safe-to-Spend")))
        let (code, response) = try safe.confirm()
        #expect(code == .ready && response["result"]?["accounts"]?.arrayValue?.first?["balance"]?["amount"]?["amount"] == .string("412.35"))
        #expect(try safe.handle().result?["accounts"]?.arrayValue?.count == 1)
        #expect(try session(#"{"intent":"search_for_accounts","accountNickname":"nest egg"}"#, engine).confirm().response["result"]?["accounts"]?
            .arrayValue?.first?["id"] == .string("nest"))
        let miles = try session(#"{"intent":"search_for_accounts","requestedBalanceType":"miles"}"#, engine).confirm().response
        #expect(miles["result"]?["accounts"]?.arrayValue?.map { $0["id"] } == [.string("miles")])
        directory.vocabularies.withLock {
            $0[.accountNickname] = UserVocabulary(
                kind: .accountNickname, items: [VocabularyItem(id: "nest", phrase: "retirement", pronunciation: nil, alternatives: ["pension"])])
        }
        #expect(try session(#"{"intent":"search_for_accounts","accountNickname":"pension"}"#, engine).confirm().response["result"]?["accounts"]?
            .arrayValue?.first?["id"] == .string("nest"))
        #expect(try session(#"{"intent":"search_for_accounts","accountType":"mortgage"}"#, engine).confirm().code == .failureAccountNotFound)
    }

    @Test func billsDueThisMonthAndNoneFound() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let due = try session(#"{"intent":"search_for_bills","status":"unpaid","dueDateRange":{"start":"2026-11-01","end":"2026-11-30"}}"#, engine)
        let bills = try due.confirm().response["result"]?["bills"]?.arrayValue ?? []
        #expect(bills.map { $0["id"] } == [.string("b-lake"), .string("b-main")])
        #expect(bills.first?["billPayee"]?["nickname"] == .string("4 Lake Road"))
        let none = try session(#"{"intent":"search_for_bills","dueDateRange":{"start":"2027-01-01"}}"#, engine)
        #expect(try none.confirm().code == .failureBillNotFound)
        let paid = try session(#"{"intent":"search_for_bills","paymentDateRange":{"end":"2026-10-31"},"billType":"water"}"#, engine)
        #expect(try paid.confirm().response["result"]?["bills"]?.arrayValue?.count == 1)
    }

    @Test func enumPhrasesThroughTheAppVocabulary() throws {
        let vocabulary = #"{"parameterVocabularies":[{"parameter":"billType","items":[{"id":"electricity","synonyms":[{"phrase":"power"}]}]}]}"#
        let (engine, _, _) = try DomainFixtures.engine(vocabulary: vocabulary)
        let power = try session(#"{"intent":"search_for_bills","billType":"power"}"#, engine)
        #expect(result(try power.resolve(), "billType") == .success(.string("electricity")))
        let spoken = try session(#"{"intent":"search_for_bills","billType":"Car Loan"}"#, engine)
        #expect(result(try spoken.resolve(), "billType") == .success(.string("carLoan")))
        let close = try session(#"{"intent":"search_for_bills","billType":"electrisity"}"#, engine)
        #expect(result(try close.resolve(), "billType") == .confirmationRequired(.string("electricity")))
        try close.answer(Answer(parameter: "billType", kind: .confirm(true)))
        #expect(result(try close.resolve(), "billType") == .success(.string("electricity")))
        let nonsense = try session(#"{"intent":"search_for_bills","billType":"zebra"}"#, engine)
        #expect(result(try nonsense.resolve(), "billType") == .unsupported(reason: "unknownValue"))
    }

    @Test func aNameThatSoundsAlikeAsksForConfirmation() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let s = try session(#"{"intent":"send_payment","payee":{"name":"Jon Bailey"},"currencyAmount":{"amount":"5","currency":"USD"}}"#, engine)
        guard case let .confirmationRequired(value) = result(try s.resolve(), "payee") else { Issue.record("expected a confirmation"); return }
        #expect(value["id"] == .string("john-baily"))
        try s.answer(Answer(parameter: "payee", kind: .confirm(true)))
        #expect(result(try s.resolve(), "payee")?.name == "disambiguation")  // then home or mobile
        let declined = try session(#"{"intent":"send_payment","payee":{"name":"Jon Bailey"}}"#, engine)
        _ = try declined.resolve()
        try declined.answer(Answer(parameter: "payee", kind: .confirm(false)))
        #expect(result(try declined.resolve(), "payee") == .unsupported(reason: "noMatchingContact"))
    }

    @Test func everyHearingAndTheHostsMatchesCount() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let nBest = try session(#"{"intent":"request_payment","payer":{"name":"Fill","alternatives":["Phil Schiller"]}}"#, engine)
        #expect(result(try nBest.resolve(), "payer")?.name == "disambiguation")
        let matched = try session(#"{"intent":"request_payment","payer":{"name":"the boss","matches":["phil-2"]}}"#, engine)
        guard case let .success(value) = result(try matched.resolve(), "payer") else { Issue.record("expected the host's match"); return }
        #expect(value["id"] == .string("phil-2"))
        directory.vocabularies.withLock {
            $0[.contactName] = UserVocabulary(kind: .contactName, items: [VocabularyItem(id: "john-appleseed", phrase: "Johnny", pronunciation: nil, alternatives: [])])
        }
        guard case let .success(johnny) = result(try session(#"{"intent":"request_payment","payer":{"name":"johnny"}}"#, engine).resolve(), "payer") else {
            Issue.record("expected the vocabulary's contact"); return
        }
        #expect(johnny["id"] == .string("john-appleseed"))
    }

    @Test func aRequestIsRecordedPendingAndMovesNothing() throws {
        let (engine, directory, ledger) = try DomainFixtures.engine()
        let s = try session(
            #"{"intent":"request_payment","payer":{"id":"john-appleseed"},"currencyAmount":{"amount":"12","currency":"USD"},"note":"lunch"}"#, engine)
        #expect(try s.confirm().code == .ready)
        let record = try JSONParser.parse(try #require(try s.handle().record).json)
        #expect(record["status"] == .string("pending") && record["payer"]?["id"] == .string("john-appleseed"))
        #expect(directory.balance("checking") == 100_000)
        #expect(try ledger.mostRecentPayee() == nil)
        let history = try session(#"{"intent":"search_for_payments","party":{"name":"John Appleseed"},"status":"pending"}"#, engine)
        #expect(try history.confirm().response["result"]?["payments"]?.arrayValue?.count == 1)
        #expect(try session(#"{"intent":"search_for_payments","status":"failed"}"#, engine).confirm().code == .failurePaymentNotFound)

        // Once the payer paid, the history shows the request completed, not pending.
        _ = try ledger.changeStatus(idempotencyKey: try #require(record["idempotencyKey"]?.stringValue), to: .completed)
        let completed = try session(#"{"intent":"search_for_payments","status":"completed"}"#, engine).confirm()
        #expect(completed.response["result"]?["payments"]?.arrayValue?.first?["status"] == .string("completed"))
        #expect(try session(#"{"intent":"search_for_payments","status":"pending"}"#, engine).confirm().code == .failurePaymentNotFound)
    }

    @Test func aParameterAskedTooOftenEndsTheDialog() throws {
        let (engine, _, _) = try DomainFixtures.engine(dialog: #"{"maxPrompts": 2}"#)
        let s = try session(#"{"intent":"send_payment","payee":{"name":"Nobody"}}"#, engine)
        _ = try s.resolve()
        _ = try s.resolve()
        #expect(throws: TenderError.self) { try s.resolve() }
        do { _ = try s.resolve() } catch { #expect(error == .dialogEnded("payee is still unresolved after 2 prompts; the dialog ended")) }
        #expect(throws: TenderError.self) { try s.confirm() }
    }

    @Test func pastScheduledDatesAreUnsupported() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let s = try session(#"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionScheduledDate":"2026-11-01"}"#, engine)
        #expect(result(try s.resolve(), "transactionScheduledDate") == .unsupported(reason: "pastDate"))
        let later = try session(
            #"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionAmount":{"amountType":"amountDue"},"transactionScheduledDate":"2026-11-29"}"#, engine)
        #expect(try later.confirm().code == .ready)
        #expect(try JSONParser.parse(try #require(try later.handle().record).json)["status"] == .string("pending"))
    }

    @Test func progressIsNotCountedAgainstThePromptLimit() throws {
        let (engine, _, _) = try DomainFixtures.engine(dialog: #"{"maxPrompts": 1}"#)
        let s = try session(#"{"intent":"send_payment","payee":{"name":"John"},"currencyAmount":{"amount":"5","currency":"USD"}}"#, engine)
        _ = try s.resolve()
        try s.answer(Answer(parameter: "payee", kind: .choose("john-baily")))
        #expect(result(try s.resolve(), "payee")?.name == "disambiguation")  // now which handle: a new question
        try s.answer(Answer(parameter: "payee", kind: .choose("jb-mobile")))
        #expect(try s.resolve().allSatisfy(\.result.isResolved))
    }

    @Test func aTransferToItselfOrNowhere() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let nowhere = try session(#"{"intent":"transfer_money","fromAccount":{"id":"savings"},"toAccount":{"id":"ghost"}}"#, engine)
        #expect(result(try nowhere.resolve(), "toAccount") == .unsupported(reason: "noMatchingAccount"))
        let itself = try session(#"{"intent":"transfer_money","fromAccount":{"nickname":"checking"},"toAccount":{"nickname":"checking"}}"#, engine)
        #expect(result(try itself.resolve(), "toAccount") == .unsupported(reason: "sameAccount"))
        let savings = try session(#"{"intent":"search_for_accounts","accountType":"savings"}"#, engine)
        #expect(result(try savings.resolve(), "accountType") == .success(.string("saving")))
    }

    @Test func aMisheardOrganizationWithTwoAccountsIsStillAChoice() throws {
        let (engine, _, _) = try DomainFixtures.engine()
        let s = try session(#"{"intent":"pay_bill","billPayee":{"name":"Electrik Company"}}"#, engine)
        guard case let .disambiguation(_, options) = result(try s.resolve(), "billPayee") else { Issue.record("expected a choice"); return }
        #expect(options.map(\.id) == ["ec-main", "ec-lake"])
    }

    @Test func aRetryWhileSignedOutStillReturnsTheRecord() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let intent = #"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionAmount":{"amountType":"amountDue"},"idempotencyKey":"k"}"#
        let first = try session(intent, engine)
        _ = try first.confirm()
        let record = try first.handle().record
        directory.signedIn.store(false, ordering: .relaxed)
        let retry = try session(intent, engine)
        #expect(try retry.confirm().code == .ready)
        #expect(try retry.handle().record == record)
    }

    @Test func aBillPaidForALaterDayIsPending() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let s = try session(
            #"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionAmount":{"amountType":"amountDue"},"transactionScheduledDate":"2026-11-29"}"#, engine)
        _ = try s.confirm()
        _ = try s.handle()
        let bill = try #require(try directory.bills().first { $0.id == "b-main" })
        let day = try LocalDate(year: 2026, month: 11, day: 29)
        #expect(bill.status == .pending && bill.paymentDate == day)
    }

    @Test func twoSessionsCannotPayOneBillTwice() throws {
        let (engine, directory, _) = try DomainFixtures.engine()
        let intent = #"{"intent":"pay_bill","billPayee":{"id":"ec-main"},"transactionAmount":{"amountType":"amountDue"}}"#
        let first = try session(intent, engine)
        let second = try session(intent, engine)
        #expect(try first.confirm().code == .ready && second.confirm().code == .ready)
        #expect(try first.handle().code == .success)
        #expect(try second.handle().code == .failure)
        #expect(directory.balance("checking") == Int64(100_000 - 8_420))
    }

    @Test func noAccountAtAllIsCredentialsUnverified() throws {
        let directory = FakeDirectory(try DirectoryDocument(json: try JSONParser.parse(
            #"{"billPayees":[{"id":"ec","organizationName":"Electric Company"}],"bills":[{"id":"b","billPayee":"ec","amountDue":{"amount":"5","currency":"USD"},"dueDate":"2026-12-01"}]}"#)))
        let engine = Engine(directory: directory, ledger: FakeLedger(directory: directory), dialog: Fixtures.personAgrees, today: { Fixtures.today })
        let s = try session(#"{"intent":"pay_bill","billPayee":{"id":"ec"},"transactionAmount":{"amountType":"amountDue"}}"#, engine)
        #expect(result(try s.resolve(), "fromAccount") == .unsupported(reason: "noAccount"))
        let (code, response) = try s.confirm()
        #expect(code == .failureCredentialsUnverified && response["reason"] == .string("noAccount"))
    }
}
