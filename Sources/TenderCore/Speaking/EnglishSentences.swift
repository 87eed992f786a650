// SPDX-License-Identifier: Apache-2.0
/// Tender's sentences in English.
struct EnglishSentences: SentenceTable {
    var another: String { "another one" }

    func list(_ items: [String], or: Bool) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
    }

    func which(_ subject: SpokenSubject, _ options: String) -> String {
        switch subject {
        case .payee, .payer, .party: return "Which person: \(options)?"
        case .handle: return "Which of their contacts: \(options)?"
        case .billPayee: return "Which payee: \(options)?"
        case .fromAccount: return "From which account: \(options)?"
        case .toAccount, .intoAccount: return "To which account: \(options)?"
        default: return "Which one: \(options)?"
        }
    }

    func didYouMean(_ value: String) -> String { "Did you mean \(value)?" }
    func payAgain(_ name: String) -> String { "Pay \(name) again?" }
    func payAmountDue(_ amount: String) -> String { "Pay the amount due, \(amount)?" }

    func needs(_ subject: SpokenSubject) -> String {
        switch subject {
        case .payee: return "Who should I pay?"
        case .payer: return "Who should I ask for the money?"
        case .party: return "Payments with whom?"
        case .amount: return "How much?"
        case .fromAccount: return "Which account should I pay from?"
        case .toAccount: return "Which account should the money go to?"
        case .intoAccount: return "Which account should the money come into?"
        case .billPayee: return "Which bill should I pay?"
        case .scheduledDate: return "On which day?"
        case .dueDate: return "Due on which day?"
        case .dateRange: return "For which dates?"
        case .handle: return "How should I reach them?"
        case .note: return "What note should I add?"
        case .billType: return "Which kind of bill?"
        case .paymentStatus: return "Which status?"
        case .accountType: return "Which kind of account?"
        case .balanceType: return "Which balance?"
        case .accountName: return "Which account?"
        case .organization: return "Which bank?"
        case .value: return "What should I use?"
        }
    }

    func refused(_ subject: SpokenSubject, _ reason: UnsupportedReason?, said: String?, limit: String?) -> String {
        let called = said.map { " called \($0)" } ?? ""
        switch reason {
        case .noMatchingContact?: return said.map { "I can't find \($0) in your contacts." } ?? "I can't find that person in your contacts."
        case .noValidHandle?: return "I have no phone number or email to pay them at."
        case .noMatchingAccount?: return "You have no account\(called)."
        case .sameAccount?: return "The money can't go to the account it comes from."
        case .noMatchingBillPayee?: return "You have no bill payee\(called)."
        case .paymentsAmountBelowMinimum?: return limit.map { "That is less than the smallest amount, \($0)." } ?? "That amount is too small."
        case .paymentsAmountAboveMaximum?: return limit.map { "That is more than the largest amount, \($0)." } ?? "That amount is too large."
        case .paymentsCurrencyUnsupported?: return "I can't pay in that currency."
        case .insufficientFunds?: return "There isn't enough money for that."
        case .noAccount?: return "You have no account to pay from."
        case .credentialsUnverified?: return "You are not signed in to your payment service."
        case .amountTypeNotStated?: return "That bill doesn't say that amount."
        case .pastDate?: return "That day has already passed."
        case .unknownValue?, nil: return said.map { "I don't know \($0) here." } ?? "I can't use that."
        }
    }

    func youCouldSay(_ options: String) -> String { "You could say \(options)." }

    func confirmSend(amount: String, to payee: String, from account: String?) -> String {
        "Send \(amount) to \(payee)\(account.map { " from \($0)" } ?? "")?"
    }

    func confirmRequest(amount: String, from payer: String, into account: String?) -> String {
        "Request \(amount) from \(payer)\(account.map { " into \($0)" } ?? "")?"
    }

    func confirmPayBill(amount: String, to payee: String, from account: String?, on day: String?) -> String {
        "Pay \(amount) to \(payee)\(account.map { " from \($0)" } ?? "")\(day.map { " on \($0)" } ?? "")?"
    }

    func confirmTransfer(amount: String, from: String?, to: String, on day: String?) -> String {
        "Move \(amount)\(from.map { " from \($0)" } ?? "") to \(to)\(day.map { " on \($0)" } ?? "")?"
    }

    func confirmTitle(_ title: String) -> String { title + "?" }

    func destinationQuestion() -> String { "To someone else, or between your own accounts?" }

    func destinationOption(_ intent: String) -> String {
        intent == IntentSchema.sendPayment.name ? "To someone else" : "Between your own accounts"
    }

    func confirmMove(amount: String, to payee: String?, from account: String?) -> String {
        "Move \(amount)\(payee.map { " to \($0)" } ?? "")\(account.map { " from \($0)" } ?? "")?"
    }
    func fee(_ amount: String) -> String { "The fee is \(amount)." }

    func sent(amount: String, to payee: String) -> String { "Sent \(amount) to \(payee)." }
    func requested(amount: String, from payer: String) -> String { "Asked \(payer) for \(amount)." }

    func paidBill(amount: String, to payee: String, on day: String?) -> String {
        day.map { "Scheduled \(amount) to \(payee) for \($0)." } ?? "Paid \(amount) to \(payee)."
    }

    func transferred(amount: String, from: String?, to: String, on day: String?) -> String {
        let source = from.map { " from \($0)" } ?? ""
        return day.map { "Scheduled \(amount)\(source) to \(to) for \($0)." } ?? "Moved \(amount)\(source) to \(to)."
    }

    func found(_ count: Int, of kind: SearchKind) -> String {
        let noun: String
        switch kind {
        case .bills: noun = count == 1 ? "bill" : "bills"
        case .accounts: noun = count == 1 ? "account" : "accounts"
        case .payments: noun = count == 1 ? "payment" : "payments"
        }
        return count == 0 ? "I found no \(noun)." : "I found \(count) \(noun)."
    }

    func balance(of account: String, _ amount: String) -> String { "\(account) has \(amount)" }
    func bill(to payee: String, _ amount: String, due day: String) -> String { "\(payee): \(amount) due \(day)" }

    func failed(_ code: ResponseCode, account: String?) -> String {
        switch code {
        case .failureInsufficientFunds: return "There isn't enough money in \(account ?? "that account"). Nothing was paid."
        case .failureNoBankAccount: return "You have no account to pay from. Nothing was paid."
        case .failureCredentialsUnverified: return "You are not signed in to your payment service. Nothing was paid."
        case .failurePaymentsAmountBelowMinimum: return "That amount is too small. Nothing was paid."
        case .failurePaymentsAmountAboveMaximum: return "That amount is too large. Nothing was paid."
        case .failurePaymentsCurrencyUnsupported: return "I can't pay in that currency. Nothing was paid."
        case .failureBillNotFound: return "I found no bill like that."
        case .failureAccountNotFound: return "I found no account like that."
        case .failurePaymentNotFound: return "I found no payment like that."
        case .failureRequiringAppLaunch: return "Please finish this in the app. Nothing was paid."
        case .failureNotEligible, .failureTermsAndConditionsAcceptanceRequired: return "You can't do that from here yet. Nothing was paid."
        default: return "That didn't work. Nothing was paid."
        }
    }

    func notAuthenticated(_ denial: AuthenticationDenial) -> String {
        switch denial {
        case .wrongCredentials: return "That password didn't work. Nothing was paid."
        case let .throttled(seconds): return "Too many tries. Try again in \(seconds) seconds. Nothing was paid."
        case .cancelled: return "You weren't asked for your password. Nothing was paid."
        case .accountUnavailable, .systemError: return "I couldn't check who you are. Nothing was paid."
        }
    }

    func declined() -> String { "OK, I won't. Nothing was paid." }
    func cancelled() -> String { "Cancelled. Nothing was paid." }
    func outOfScope() -> String { "Sorry, I can only help with payments, bills and your accounts." }
    func notUnderstood(_ hint: String) -> String { "Sorry, I didn't get that. \(hint)" }
    func sayYesOrNo() -> String { "Say yes or no, or cancel." }
    func sayNumberOrName(_ count: Int) -> String { "Say a number from 1 to \(count) or a name, or cancel." }
    func sayAValue() -> String { "Say it another way, or cancel." }

    func handleLabel(_ label: String) -> String { label }
    func caseName(_ name: String) -> String { SpokenFormat.words(ofCase: name) }
}
