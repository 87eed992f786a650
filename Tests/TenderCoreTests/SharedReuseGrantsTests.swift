// SPDX-License-Identifier: Apache-2.0
import Synchronization
import Testing
@testable import TenderCore

/// A gate whose reuse budgets are kept by a shared store (``ReuseGrants``, tenderd on PostgreSQL): two gates (two
/// daemons) spend one budget, and any failure of the store asks again.
@Suite struct SharedReuseGrantsTests {
    /// Budgets in memory, shared by the gates given it, as the database shares them; `failing` makes every call throw.
    private final class Budgets: ReuseGrants {
        struct Budget {
            let scope: String, key: String
            var remaining: Money?
            var count: Int
        }
        let budgets = Mutex<[Budget]>([])
        let failing = Mutex(false)

        func spendGrant(
            scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?
        ) throws(TenderError) -> (remaining: Money?, count: Int)? {
            if failing.withLock({ $0 }) { throw .storeBusy("the database cannot be reached") }
            let key = "\(user)/\(intent)/\(payeeID)/\(device ?? "-")"
            return budgets.withLock { list -> (remaining: Money?, count: Int)? in
                guard let index = list.firstIndex(where: { budget in
                    guard budget.scope == scope, budget.key == key, budget.count > 0 else { return false }
                    switch (amount, budget.remaining) {
                    case (nil, nil): return true
                    case let (amount?, left?): return amount.currency == left.currency && amount.minorUnits <= left.minorUnits
                    default: return false
                    }
                }) else { return nil }
                list[index].count -= 1
                if let amount, let left = list[index].remaining {
                    list[index].remaining = try? Money(minorUnits: left.minorUnits - amount.minorUnits, currency: left.currency)
                }
                return (list[index].remaining, list[index].count)
            }
        }

        func recordGrant(
            scope: String, user: String, intent: String, payeeID: String, device: String?, amount: Money?, count: Int, seconds: Int64
        ) throws(TenderError) {
            if failing.withLock({ $0 }) { throw .storeBusy("the database cannot be reached") }
            budgets.withLock { $0.append(Budget(scope: scope, key: "\(user)/\(intent)/\(payeeID)/\(device ?? "-")", remaining: amount, count: count)) }
        }
    }

    private func engine(_ budgets: Budgets, _ authenticator: FakeAuthenticator, policy configure: (inout AuthenticationPolicy) -> Void = { _ in })
        throws -> Engine
    {
        let (plain, _, _) = try Fixtures.engine()
        var policy = AuthenticationPolicy()
        policy.reuseSeconds = 60
        policy.reuseCount = 2
        configure(&policy)
        let gate = AuthenticationGate(
            policy: policy, authenticator: authenticator, records: FakeAuthenticationRecords(), clock: ManualClock(), sharedGrants: budgets)
        return Engine(directory: plain.directory, ledger: plain.ledger, limits: plain.limits, gate: gate, dialog: Fixtures.personAgrees,
                      today: { Fixtures.today })
    }

    private func pay(_ engine: Engine, amount: String, password: String?) throws -> ResponseCode {
        let session = try Fixtures.session(
            #"{"intent":"send_payment","payee":{"id":"tim-cook","handle":"mobile"},"currencyAmount":{"amount":"\#(amount)","currency":"USD"}}"#,
            engine: engine)
        session.conversation = FixedConversation(answer: password)
        #expect(try session.confirm().code == .ready)
        return try session.handle().code
    }

    @Test func twoGatesSpendOneBudget() throws {
        let budgets = Budgets()
        let (askedA, askedB) = (FakeAuthenticator(password: "s3cret"), FakeAuthenticator(password: "s3cret"))
        let (a, b) = (try engine(budgets, askedA), try engine(budgets, askedB))
        #expect(try pay(a, amount: "10", password: "s3cret") == .success)
        // Through the other gate, with no password: $6 of the $10 authenticated, then $4, then nothing is left.
        #expect(try pay(b, amount: "6", password: nil) == .success)
        #expect(try pay(a, amount: "5", password: nil) == .failureCredentialsUnverified)
        #expect(try pay(a, amount: "4", password: nil) == .success)
        #expect(try pay(b, amount: "1", password: nil) == .failureCredentialsUnverified)
        #expect(askedA.timesAsked == 2 && askedB.timesAsked == 1)
    }

    @Test func aBudgetIsSpentOnlyUnderThePolicyThatMadeIt() throws {
        let budgets = Budgets()
        let lenient = try engine(budgets, FakeAuthenticator(password: "s3cret"))
        let strict = try engine(budgets, FakeAuthenticator(password: "s3cret")) { $0.newPayee = true }
        #expect(try pay(lenient, amount: "10", password: "s3cret") == .success)
        #expect(try pay(strict, amount: "1", password: nil) == .failureCredentialsUnverified)
    }

    @Test func aFailingStoreAsksAgain() throws {
        let budgets = Budgets()
        let asked = FakeAuthenticator(password: "s3cret")
        let gate = try engine(budgets, asked)
        #expect(try pay(gate, amount: "10", password: "s3cret") == .success)
        budgets.failing.withLock { $0 = true }
        #expect(try pay(gate, amount: "1", password: nil) == .failureCredentialsUnverified)
        // A budget that could not be kept is not kept: once the store is back, the next payment asks.
        #expect(try pay(gate, amount: "1", password: "s3cret") == .success)
        budgets.failing.withLock { $0 = false }
        // The first budget, kept before the failure, covers its two payments, and no more.
        #expect(try pay(gate, amount: "1", password: nil) == .success)
        #expect(try pay(gate, amount: "1", password: nil) == .success)
        #expect(try pay(gate, amount: "1", password: nil) == .failureCredentialsUnverified)
        #expect(asked.timesAsked == 4)
    }
}
