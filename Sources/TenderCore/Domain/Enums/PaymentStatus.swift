// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INPaymentStatus, for payments and bills.
public enum PaymentStatus: String, NamedValue {
    case unknown, pending, completed, canceled, failed, unpaid
    public static let kindName = "payment status"
}
