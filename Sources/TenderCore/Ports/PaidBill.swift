// SPDX-License-Identifier: Apache-2.0
/// The bill a payment pays, and how it stands once the payment is recorded.
public struct PaidBill: Equatable, Sendable {
    public let id: String
    /// completed, or pending for a payment scheduled for a later day.
    public let status: PaymentStatus
    /// The payment date.
    public let on: LocalDate

    public init(id: String, status: PaymentStatus, on: LocalDate) {
        self.id = id
        self.status = status
        self.on = on
    }
}
