// SPDX-License-Identifier: Apache-2.0
import Glibc
import TenderTestSupport
import Synchronization
import Testing
import TenderCore
import TenderStore
import TenderWiring

/// A clock that stands where the test puts it.
private final class SetClock: TenderClock {
    let milliseconds = Mutex<Int64>(1_767_225_600_000)  // 2026-01-01T00:00:00Z

    func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
    func monotonicMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
    func today() -> LocalDate { LocalDate(unixMilliseconds: nowMilliseconds()) }
}

@Suite struct EngineFactoryTests {
    private static let directory = """
        {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                       "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
         "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                       "balance": {"amount": "100.00", "currency": "USD"}, "default": true}]}
        """

    private func configuration(_ home: String) -> EngineConfiguration {
        var policy = AuthenticationPolicy()
        policy.restrictedIntents = []
        var dialog = DialogOptions()
        dialog.requireAgreement = false
        return EngineConfiguration(home: home, authentication: policy, dialog: dialog)
    }

    private func pay(_ engine: Engine) throws -> PaymentRecord? {
        let session = try DialogSession(
            engine: engine,
            json: try JSONParser.parse(#"{"intent":"send_payment","payee":{"id":"tim-cook"},"currencyAmount":{"amount":"5","currency":"USD"}}"#))
        #expect(try session.confirm().code == .ready)
        return try session.handle().record
    }

    @Test func theEngineTheStoreAndTheGateReadTheOneClock() throws {
        let home = TemporaryHome()
        let clock = SetClock()
        let assembled = try EngineFactory.assemble(configuration(home.path + "/home"), clock: clock)
        try assembled.directoryAdmin.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory)))
        #expect(assembled.engine.today() == clock.today())
        let record = try #require(try pay(assembled.engine))
        #expect(record.json.contains(#""createdAt":"2026-01-01T00:00:00.000Z""#))
        clock.milliseconds.withLock { $0 += 90_000 }
        let audit = try assembled.ledgerAdmin.auditEntries()
        #expect(audit.map(\.event) == [AuditEvent.notRequired.rawValue])
        #expect(audit.first?.atMilliseconds == 1_767_225_600_000)
        #expect(try assembled.ledgerAdmin.checkpoint().isEmpty == false)
    }

    @Test func aGivenStoreIsUsedAndAReadOnlyHomeIsNeverCreated() throws {
        let home = TemporaryHome()
        let path = home.path + "/home"
        #expect(throws: TenderError.self) { try EngineFactory.openStore(home: path, access: .readOnly) }
        let store = try EngineFactory.openStore(home: path, access: .readWrite(newLedger: false))
        let assembled = try EngineFactory.assemble(configuration(path), store: store)
        try assembled.directoryAdmin.importDirectory(try DirectoryDocument(json: try JSONParser.parse(Self.directory)))
        #expect(try store.directory().contacts.map(\.id) == ["tim-cook"])  // the same store, not a second one
        #expect(try pay(assembled.engine) != nil)
        #expect(try store.records().count == 1)
    }

    /// Adversary review (issue 34's open: keys/ looked at before mkdir): a read-only open on a mistyped path, missing or
    /// an existing directory that is no home, is refused and creates nothing there (no home, no keys/, no store). Held.
    @Test func aReadOnlyOpenOnAMistypedPathCreatesNothing() throws {
        let home = TemporaryHome()
        let missing = home.path + "/no-such-home"
        #expect(throws: TenderError.self) { try EngineFactory.openStore(home: missing, access: .readOnly) }
        #expect(access(missing, F_OK) != 0)
        let plain = home.path + "/plain"
        #expect(mkdir(plain, 0o700) == 0)
        #expect(throws: TenderError.self) { try EngineFactory.openStore(home: plain, access: .readOnly) }
        #expect(throws: TenderError.self) { try EngineFactory.assemble(EngineConfiguration(home: plain, readOnly: true)) }
        let dir = try #require(opendir(plain))
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) })
        }
        closedir(dir)
        #expect(names.sorted() == [".", ".."])
    }

    @Test func aMissingVocabularyFileIsRefusedBeforeTheHomeIsCreated() throws {
        let home = TemporaryHome()
        let path = home.path + "/home"
        let configuration = EngineConfiguration(home: path, vocabularyFile: home.path + "/no-such-file.json")
        #expect(throws: TenderError.self) { try EngineFactory.assemble(configuration) }
        #expect(throws: TenderError.self) { try EngineFactory.openStore(home: path, access: .readOnly) }  // nothing was created
    }
}
