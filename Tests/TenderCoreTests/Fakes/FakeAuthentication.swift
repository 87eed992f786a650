// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TenderCore

/// An authenticator that accepts one password, counting how often it asks.
final class FakeAuthenticator: Authenticator {
    let user = "ada"
    let password: String
    private let asked = Atomic<Int>(0)

    init(password: String) { self.password = password }

    var timesAsked: Int { asked.load(ordering: .relaxed) }

    func authenticate(through conversation: any Conversation) -> AuthenticationDenial? {
        asked.add(1, ordering: .relaxed)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 1)
        defer { buffer.deallocate() }
        guard let length = conversation.converse(kind: .secret, message: "Password: ", answer: buffer) else {
            return .cancelled("cancelled")
        }
        return String(decoding: buffer.prefix(length), as: UTF8.self) == password ? nil : .wrongCredentials("wrong")
    }
}

/// Answers every prompt with a fixed text (nil: cancels).
struct FixedConversation: Conversation {
    let answer: String?

    func converse(kind: PromptKind, message: String, answer buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let answer else { return nil }
        let bytes = Array(answer.utf8)
        buffer.copyBytes(from: bytes)
        return bytes.count
    }
}

/// In-memory authentication records with a settable clock.
final class FakeAuthenticationRecords: AuthenticationRecords {
    private struct State {
        var failures: [String: Int] = [:]
        var nextAllowed: [String: Int64] = [:]
        var audit: [String] = []
        var paid: Set<String> = []
        var devices: Set<String> = []
        var now: Int64 = 0
    }
    private let state = Mutex(State())

    func advance(seconds: Int64) { state.withLock { $0.now += seconds } }
    func markPaid(_ id: String) { state.withLock { _ = $0.paid.insert(id) } }
    var auditLog: [String] { state.withLock { $0.audit } }

    func reserveAttempt(user: String, throttle: ThrottlePolicy) throws(TenderError) -> Int64 {
        state.withLock { s in
            let wait = (s.nextAllowed[user] ?? 0) - s.now
            if wait > 0 { return wait }
            let failures = (s.failures[user] ?? 0) + 1
            s.failures[user] = failures
            s.nextAllowed[user] = s.now + throttle.delay(afterFailures: failures)
            return 0
        }
    }

    func settleAttempt(user: String, outcome: AttemptOutcome, throttle: ThrottlePolicy) throws(TenderError) {
        state.withLock { s in
            switch outcome {
            case .succeeded:
                s.failures[user] = nil
                s.nextAllowed[user] = nil
            case .failed:
                break
            case .notCounted:
                let failures = max(0, (s.failures[user] ?? 0) - 1)
                s.failures[user] = failures
                s.nextAllowed[user] = s.now + throttle.delay(afterFailures: failures)
            }
        }
    }

    func audit(user: String, event: AuditEvent, intent: String, detail: String) throws(TenderError) {
        state.withLock { $0.audit.append("\(event.rawValue) \(detail)") }
    }

    func hasPaid(party: String) throws(TenderError) -> Bool { state.withLock { $0.paid.contains(party) } }

    func isKnownDevice(_ device: String, remember: Bool) throws(TenderError) -> Bool {
        state.withLock { s in
            if remember { s.devices.insert(device) }
            return s.devices.contains(device)
        }
    }
}
