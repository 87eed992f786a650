// SPDX-License-Identifier: Apache-2.0
/// What an intent's confirm decided: the response code, the response's
/// members, and what handle will do when the code is ready.
struct Confirmation {
    /// What handle does once confirmed.
    enum Plan {
        /// Record (and move) a payment.
        case payment(PaymentPlan)
        /// Answer a search with this result.
        case report(JSONValue)
        /// Hand a custom intent to the host's handler (and record it when its definition says so).
        case custom(CustomIntentPlan)
    }

    let code: ResponseCode
    let members: [(key: String, value: JSONValue)]
    /// What handle would do, whatever the code (a retry of a payment made before is ready again).
    let candidate: Plan?

    init(_ code: ResponseCode, _ members: [(key: String, value: JSONValue)], plan: Plan? = nil) {
        self.code = code
        self.members = members
        self.candidate = plan
    }

    /// What handle will do: only when the code is ready.
    var plan: Plan? { code == .ready ? candidate : nil }
}
