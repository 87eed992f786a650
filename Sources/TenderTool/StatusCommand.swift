// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore

/// `tender status`: records a later status change of a pending payment.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Record that a pending payment completed, was canceled or failed (a signed ledger entry).",
        discussion: """
            Prints the signed payment_status entry as JSON, then its compact JWS. Canceled or failed gives \
            back what the payment moved; completed credits a request's account. A key whose host call's outcome \
            is unknown (TENDER_E_OUTCOME_UNKNOWN) is settled the same way: completed records the payment (the host \
            paid), failed records nothing and frees the key (it did not).
            """)

    @OptionGroup var home: HomeOption
    @Argument(help: "The payment's idempotency key (its record's \"idempotencyKey\").") var idempotencyKey: String
    @Argument(help: "completed, canceled or failed.") var status: String

    func validate() throws {
        guard PaymentStatus(rawValue: status) != nil else { throw ValidationError("\"\(status)\" is not a payment status (completed, canceled or failed)") }
    }

    func run() throws {
        let store = try StoreOpener.open(home: try StoreOpener.requiredHome(home))
        guard let next = PaymentStatus(rawValue: status) else { throw ValidationError("not a payment status") }
        let entry = try store.changeStatus(idempotencyKey: idempotencyKey, to: next)
        print(entry.json)
        print(entry.jws)
    }
}
