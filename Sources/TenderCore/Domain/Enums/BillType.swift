// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INBillType: the 22 kinds of bill (plus unknown).
public enum BillType: String, NamedValue {
    case unknown, autoInsurance, cable, carLease, carLoan, creditCard, electricity, gas, garbageAndRecycling, healthInsurance
    case homeInsurance, internet, lifeInsurance, mortgage, musicStreaming, phone, rent, sewer, studentLoan, trafficTicket
    case tuition, utilities, water
    public static let kindName = "bill type"
}
