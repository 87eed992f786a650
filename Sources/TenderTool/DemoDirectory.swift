// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The demo directory, with the data of every seed scenario: two Johns (one
/// with home, mobile and work handles); Tim Cook, Craig Federighi and Phil
/// Schiller; the Electric Company at two addresses with a bill each, a phone
/// bill; checking (the default), savings and the "Safe-to-Spend" and
/// "NestEgg" accounts; dates are this month's, so "bills due this month" finds them.
enum DemoDirectory {
    static func json(today: LocalDate) -> String {
        let first = today.firstDayOfMonth
        let last = today.lastDayOfMonth
        return """
            {
              "contacts": [
                {"id": "john-appleseed", "displayName": "John Appleseed",
                 "handles": [{"id": "john-appleseed-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0100"}]},
                {"id": "john-baily", "displayName": "John Baily",
                 "handles": [
                   {"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0111"},
                   {"id": "john-baily-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0112"},
                   {"id": "john-baily-work", "label": "work", "type": "email", "value": "john.baily@example.com"}]},
                {"id": "tim-cook", "displayName": "Tim Cook",
                 "handles": [{"id": "tim-cook-work", "label": "work", "type": "email", "value": "tim@example.com"}]},
                {"id": "craig-federighi", "displayName": "Craig Federighi",
                 "handles": [{"id": "craig-federighi-work", "label": "work", "type": "email", "value": "craig@example.com"}]},
                {"id": "phil-schiller", "displayName": "Phil Schiller",
                 "handles": [{"id": "phil-schiller-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0130"}]},
                {"id": "phil-schiller-2", "displayName": "Phil Schiller",
                 "handles": [{"id": "phil-schiller-2-email", "label": "home", "type": "email", "value": "phil.s@example.org"}]}
              ],
              "accounts": [
                {"id": "checking", "nickname": "Checking", "organizationName": "Simple Bank", "type": "checking",
                 "balance": {"amount": "2500.00", "currency": "USD"}, "default": true},
                {"id": "savings", "nickname": "Savings", "organizationName": "Simple Bank", "type": "saving",
                 "balance": {"amount": "8000.00", "currency": "USD"}},
                {"id": "safe-to-spend", "nickname": "Safe-to-Spend", "organizationName": "Simple Bank", "type": "checking",
                 "balance": {"amount": "412.35", "currency": "USD"}},
                {"id": "nest-egg", "nickname": "NestEgg", "organizationName": "Simple Bank", "type": "saving",
                 "balance": {"amount": "15000.00", "currency": "USD"}},
                {"id": "travel-card", "nickname": "Travel Card", "organizationName": "Sky Miles Bank", "type": "credit",
                 "balance": {"amount": "0.00", "currency": "USD"}, "miles": 42000, "points": 1200}
              ],
              "billPayees": [
                {"id": "electric-main", "organizationName": "Electric Company", "nickname": "12 Main Street", "accountNumber": "EC-1001"},
                {"id": "electric-lake", "organizationName": "Electric Company", "nickname": "4 Lake Road", "accountNumber": "EC-2002"},
                {"id": "phone-co", "organizationName": "Phone Company", "accountNumber": "PC-77"}
              ],
              "bills": [
                {"id": "electric-main-bill", "billPayee": "electric-main", "type": "electricity", "status": "unpaid",
                 "amountDue": {"amount": "84.20", "currency": "USD"}, "minimumDue": {"amount": "25.00", "currency": "USD"},
                 "lateFee": {"amount": "5.00", "currency": "USD"}, "dueDate": "\(last)"},
                {"id": "electric-lake-bill", "billPayee": "electric-lake", "type": "electricity", "status": "unpaid",
                 "amountDue": {"amount": "61.75", "currency": "USD"}, "minimumDue": {"amount": "20.00", "currency": "USD"},
                 "lateFee": {"amount": "5.00", "currency": "USD"}, "dueDate": "\(last)"},
                {"id": "phone-bill", "billPayee": "phone-co", "type": "phone", "status": "completed",
                 "amountDue": {"amount": "45.00", "currency": "USD"}, "dueDate": "\(first)", "paymentDate": "\(first)"}
              ]
            }
            """
    }
}
