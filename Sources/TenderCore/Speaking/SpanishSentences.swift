// SPDX-License-Identifier: Apache-2.0
/// Tender's sentences in Spanish.
struct SpanishSentences: SentenceTable {
    var another: String { "otro" }

    func list(_ items: [String], or: Bool) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        // "o" becomes "u" before an o- sound, "y" becomes "e" before an i- sound.
        let first = last.lowercased().first
        let word = or ? (first == "o" || first == "ó" ? "u" : "o") : (first == "i" || first == "í" ? "e" : "y")
        return items.dropLast().joined(separator: ", ") + " \(word) " + last
    }

    func which(_ subject: SpokenSubject, _ options: String) -> String {
        switch subject {
        case .payee, .payer, .party: return "¿Qué persona: \(options)?"
        case .handle: return "¿Qué contacto: \(options)?"
        case .billPayee: return "¿A quién: \(options)?"
        case .fromAccount: return "¿Desde qué cuenta: \(options)?"
        case .toAccount, .intoAccount: return "¿A qué cuenta: \(options)?"
        default: return "¿Cuál: \(options)?"
        }
    }

    func didYouMean(_ value: String) -> String { "¿Te refieres a \(value)?" }
    func payAgain(_ name: String) -> String { "¿Le pago otra vez a \(name)?" }
    func payAmountDue(_ amount: String) -> String { "¿Pago el importe pendiente, \(amount)?" }

    func needs(_ subject: SpokenSubject) -> String {
        switch subject {
        case .payee: return "¿A quién le pago?"
        case .payer: return "¿A quién le pido el dinero?"
        case .party: return "¿Pagos con quién?"
        case .amount: return "¿Cuánto?"
        case .fromAccount: return "¿Desde qué cuenta pago?"
        case .toAccount: return "¿A qué cuenta va el dinero?"
        case .intoAccount: return "¿En qué cuenta recibo el dinero?"
        case .billPayee: return "¿Qué factura pago?"
        case .scheduledDate: return "¿Qué día?"
        case .dueDate: return "¿Con qué fecha de vencimiento?"
        case .dateRange: return "¿De qué fechas?"
        case .handle: return "¿Cómo le hago llegar el pago?"
        case .note: return "¿Qué nota añado?"
        case .billType: return "¿Qué tipo de factura?"
        case .paymentStatus: return "¿En qué estado?"
        case .accountType: return "¿Qué tipo de cuenta?"
        case .balanceType: return "¿Qué saldo?"
        case .accountName: return "¿Qué cuenta?"
        case .organization: return "¿Qué banco?"
        case .value: return "¿Qué valor uso?"
        }
    }

    func refused(_ subject: SpokenSubject, _ reason: UnsupportedReason?, said: String?, limit: String?) -> String {
        let called = said.map { " llamada \($0)" } ?? ""
        switch reason {
        case .noMatchingContact?: return said.map { "No encuentro a \($0) en tus contactos." } ?? "No encuentro a esa persona en tus contactos."
        case .noValidHandle?: return "No tengo un teléfono ni un correo para pagarle."
        case .noMatchingAccount?: return "No tienes ninguna cuenta\(called)."
        case .sameAccount?: return "El dinero no puede ir a la misma cuenta de la que sale."
        case .noMatchingBillPayee?: return said.map { "No tienes ninguna factura de \($0)." } ?? "No tienes esa factura."
        case .paymentsAmountBelowMinimum?: return limit.map { "Es menos que el importe mínimo, \($0)." } ?? "Ese importe es demasiado pequeño."
        case .paymentsAmountAboveMaximum?: return limit.map { "Es más que el importe máximo, \($0)." } ?? "Ese importe es demasiado grande."
        case .paymentsCurrencyUnsupported?: return "No puedo pagar en esa moneda."
        case .insufficientFunds?: return "No hay dinero suficiente para eso."
        case .noAccount?: return "No tienes ninguna cuenta desde la que pagar."
        case .credentialsUnverified?: return "No has iniciado sesión en tu servicio de pagos."
        case .amountTypeNotStated?: return "Esa factura no indica ese importe."
        case .pastDate?: return "Ese día ya pasó."
        case .unknownValue?, nil: return said.map { "No conozco \($0) aquí." } ?? "No puedo usar eso."
        }
    }

    func youCouldSay(_ options: String) -> String { "Puedes decir \(options)." }

    func confirmSend(amount: String, to payee: String, from account: String?) -> String {
        "¿Envío \(amount) a \(payee)\(account.map { " desde \($0)" } ?? "")?"
    }

    func confirmRequest(amount: String, from payer: String, into account: String?) -> String {
        "¿Le pido \(amount) a \(payer)\(account.map { " para \($0)" } ?? "")?"
    }

    func confirmPayBill(amount: String, to payee: String, from account: String?, on day: String?) -> String {
        "¿Pago \(amount) a \(payee)\(account.map { " desde \($0)" } ?? "")\(day.map { " el \($0)" } ?? "")?"
    }

    func confirmTransfer(amount: String, from: String?, to: String, on day: String?) -> String {
        "¿Paso \(amount)\(from.map { " de \($0)" } ?? "") a \(to)\(day.map { " el \($0)" } ?? "")?"
    }

    func confirmTitle(_ title: String) -> String { "¿" + title + "?" }

    func destinationQuestion() -> String { "¿A otra persona, o entre tus propias cuentas?" }

    func destinationOption(_ intent: String) -> String {
        intent == IntentSchema.sendPayment.name ? "A otra persona" : "Entre tus propias cuentas"
    }

    func confirmMove(amount: String, to payee: String?, from account: String?) -> String {
        "¿Muevo \(amount)\(payee.map { " a \($0)" } ?? "")\(account.map { " desde \($0)" } ?? "")?"
    }
    func fee(_ amount: String) -> String { "La comisión es de \(amount)." }

    func sent(amount: String, to payee: String) -> String { "Enviaste \(amount) a \(payee)." }
    func requested(amount: String, from payer: String) -> String { "Le pediste \(amount) a \(payer)." }

    func paidBill(amount: String, to payee: String, on day: String?) -> String {
        day.map { "Programaste un pago de \(amount) a \(payee) para el \($0)." } ?? "Pagaste \(amount) a \(payee)."
    }

    func transferred(amount: String, from: String?, to: String, on day: String?) -> String {
        let source = from.map { " de \($0)" } ?? ""
        return day.map { "Programaste pasar \(amount)\(source) a \(to) el \($0)." } ?? "Pasaste \(amount)\(source) a \(to)."
    }

    func found(_ count: Int, of kind: SearchKind) -> String {
        let noun: String
        switch kind {
        case .bills: noun = count == 1 ? "factura" : "facturas"
        case .accounts: noun = count == 1 ? "cuenta" : "cuentas"
        case .payments: noun = count == 1 ? "pago" : "pagos"
        }
        if count == 0 { return kind == .payments ? "No encontré ningún pago." : "No encontré ninguna \(noun.dropLast())." }
        return "Encontré \(count) \(noun)."
    }

    func balance(of account: String, _ amount: String) -> String { "\(account) tiene \(amount)" }
    func bill(to payee: String, _ amount: String, due day: String) -> String { "\(payee): \(amount), vence el \(day)" }

    func failed(_ code: ResponseCode, account: String?) -> String {
        switch code {
        case .failureInsufficientFunds: return "No hay dinero suficiente en \(account ?? "esa cuenta"). No se pagó nada."
        case .failureNoBankAccount: return "No tienes ninguna cuenta desde la que pagar. No se pagó nada."
        case .failureCredentialsUnverified: return "No has iniciado sesión en tu servicio de pagos. No se pagó nada."
        case .failurePaymentsAmountBelowMinimum: return "Ese importe es demasiado pequeño. No se pagó nada."
        case .failurePaymentsAmountAboveMaximum: return "Ese importe es demasiado grande. No se pagó nada."
        case .failurePaymentsCurrencyUnsupported: return "No puedo pagar en esa moneda. No se pagó nada."
        case .failureBillNotFound: return "No encontré ninguna factura así."
        case .failureAccountNotFound: return "No encontré ninguna cuenta así."
        case .failurePaymentNotFound: return "No encontré ningún pago así."
        case .failureRequiringAppLaunch: return "Termina esto en la aplicación. No se pagó nada."
        case .failureNotEligible, .failureTermsAndConditionsAcceptanceRequired: return "Todavía no puedes hacer eso desde aquí. No se pagó nada."
        default: return "No funcionó. No se pagó nada."
        }
    }

    func notAuthenticated(_ denial: AuthenticationDenial) -> String {
        switch denial {
        case .wrongCredentials: return "Esa contraseña no sirvió. No se pagó nada."
        case let .throttled(seconds): return "Demasiados intentos. Vuelve a probar en \(seconds) segundos. No se pagó nada."
        case .cancelled: return "No se te pidió la contraseña. No se pagó nada."
        case .accountUnavailable, .systemError: return "No pude comprobar quién eres. No se pagó nada."
        }
    }

    func declined() -> String { "De acuerdo, no lo hago. No se pagó nada." }
    func cancelled() -> String { "Cancelado. No se pagó nada." }
    func outOfScope() -> String { "Perdona, solo puedo ayudarte con pagos, facturas y tus cuentas." }
    func notUnderstood(_ hint: String) -> String { "Perdona, no te entendí. \(hint)" }
    func sayYesOrNo() -> String { "Di sí o no, o cancela." }
    func sayNumberOrName(_ count: Int) -> String { "Di un número del 1 al \(count) o un nombre, o cancela." }
    func sayAValue() -> String { "Dilo de otra forma, o cancela." }

    private static let handleLabels = ["home": "casa", "mobile": "móvil", "work": "trabajo", "iphone": "iPhone", "main": "principal", "other": "otro"]

    func handleLabel(_ label: String) -> String { Self.handleLabels[label.lowercased()] ?? label }

    private static let cases = [
        "electricity": "luz", "water": "agua", "gas": "gas", "phone": "teléfono", "internet": "internet", "rent": "alquiler",
        "mortgage": "hipoteca", "creditCard": "tarjeta de crédito", "carLoan": "préstamo del coche", "cable": "cable",
        "utilities": "suministros", "tuition": "matrícula", "pending": "pendiente", "completed": "completado", "canceled": "cancelado",
        "failed": "fallido", "unpaid": "sin pagar", "checking": "corriente", "saving": "ahorro", "credit": "crédito", "debit": "débito",
        "money": "dinero", "points": "puntos", "miles": "millas",
    ]

    func caseName(_ name: String) -> String { Self.cases[name] ?? SpokenFormat.words(ofCase: name) }
}
