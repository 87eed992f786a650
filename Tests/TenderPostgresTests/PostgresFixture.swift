// SPDX-License-Identifier: Apache-2.0
import Glibc
import TenderCore

/// The test database, from the environment (nil: the server suites are skipped; `make test-postgres` sets it).
let postgresTestURI = getenv("TENDER_TEST_POSTGRES_URI").map { String(cString: $0) }

/// What the PostgreSQL server suites pay with: a directory, people, homes and payments of their own.
enum PostgresFixture {
    /// One contact (Tim Cook, one handle) and one checking account with $100.
    static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
           "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true}]}
        """

    /// A person of one test alone (a uid no account has).
    static func person() -> UInt32 { UInt32.random(in: 3_000_000_000...3_900_000_000) }

    /// A new home for a person's key files, under TMPDIR.
    static func home() -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/tender-pg-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) } + "/home"
    }

    /// $1 from `checking` to Tim Cook under `key`, its record in format 1 (the signed copy of the columns the store
    /// keeps beside it, which verify checks them against), as the SQLite store's tests write it.
    static func payment(_ key: String) throws -> PaymentSubmission {
        let money = try Money(decimal: "1.00", currency: try Currency(code: "USD"))
        let movements = [BalanceMovement(accountID: "checking", currency: money.currency, delta: -money.minorUnits)]
        let effects = PaymentEffects(movements: movements, onCompletion: [], bill: nil)
        let columns: JSONValue = .object([
            ("idempotencyKey", .string(key)), ("fingerprint", .string("fp")), ("account", .string("checking")),
            ("payeeContact", .string("tim-cook")), ("payeeHandle", .string("tc-work")), ("currency", .string("USD")),
            ("amountMinor", .number(String(money.minorUnits))), ("effects", effects.json),
        ])
        return PaymentSubmission(
            idempotencyKey: key, fingerprint: "fp", amount: money, movements: movements, payee: RecentPayee(contactID: "tim-cook", handleID: "tc-work")
        ) { position in JSONWriter.string(.object(position.members(type: "payment") + [("ledger", columns)])) }
    }
}
