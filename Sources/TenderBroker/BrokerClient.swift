// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// An engine's ports on the broker (`"broker": PATH`): the directory, the
/// ledger and their administration live in the daemon, which acts for the
/// uid the kernel reports for this process. Each call is one short connection;
/// a dialog has its own (``BrokeredSession``). Payments are made only by the
/// daemon's sessions: ``submit(_:)`` always throws. Thread-safe.
public final class BrokerClient: Directory, DirectoryAdmin, LedgerAdmin, PaymentLedger {
    /// The daemon's socket.
    public let path: String
    /// The client's own authentication policy, which the daemon adds to root's.
    public let authentication: JSONValue?

    public init(path: String, authentication: JSONValue?) {
        self.path = path
        self.authentication = authentication
    }

    /// A new connection, after hello.
    public func connect() throws(TenderError) -> BrokerConnection { try BrokerConnection(path: path, authentication: authentication) }

    /// One call on a connection of its own.
    public func call(_ op: BrokerOp, _ body: [(key: String, value: JSONValue)] = []) throws(TenderError) -> JSONValue {
        let connection = try connect()
        defer { connection.close() }
        return try connection.call(op, body)
    }

    private func member(_ op: BrokerOp, _ key: String, _ body: [(key: String, value: JSONValue)] = []) throws(TenderError) -> JSONValue {
        guard let value = try call(op, body)[key] else { throw .store("the broker answered \(op.rawValue) without \(key)") }
        return value
    }

    // MARK: Directory

    public func contacts() throws(TenderError) -> [Contact] { try directoryDocument().contacts }
    public func contact(id: String) throws(TenderError) -> Contact? { try contacts().first { $0.id == id } }
    public func accounts() throws(TenderError) -> [Account] { try directoryDocument().accounts }
    public func billPayees() throws(TenderError) -> [BillPayee] { try directoryDocument().billPayees }
    public func bills() throws(TenderError) -> [Bill] { try directoryDocument().bills }

    public func vocabulary(_ kind: VocabularyKind) throws(TenderError) -> UserVocabulary {
        try UserVocabulary(json: try member(.vocabulary, "vocabulary", [("kind", .string(kind.rawValue))]))
    }

    public func isSignedIn() throws(TenderError) -> Bool {
        guard let value = try member(.signedIn, "signedIn").boolValue else { throw .store("the broker answered signedIn without a boolean") }
        return value
    }

    // MARK: DirectoryAdmin

    public func directoryDocument() throws(TenderError) -> DirectoryDocument { try DirectoryDocument(json: try member(.directory, "directory")) }
    public func importDirectory(_ document: DirectoryDocument) throws(TenderError) { _ = try call(.importDirectory, [("directory", document.json)]) }

    public func removeFromDirectory(_ removal: DirectoryRemoval) throws(TenderError) {
        let lists: [(key: String, value: JSONValue)] = [
            ("contacts", .array(removal.contacts.map(JSONValue.string))), ("accounts", .array(removal.accounts.map(JSONValue.string))),
            ("billPayees", .array(removal.billPayees.map(JSONValue.string))), ("bills", .array(removal.bills.map(JSONValue.string))),
        ]
        _ = try call(.removeFromDirectory, [("removal", .object(lists))])
    }

    public func setVocabulary(_ vocabulary: UserVocabulary) throws(TenderError) { _ = try call(.setVocabulary, [("vocabulary", vocabulary.json)]) }
    public func setSignedIn(_ signedIn: Bool) throws(TenderError) { _ = try call(.setSignedIn, [("signedIn", .bool(signedIn))]) }

    public func shortcuts() throws(TenderError) -> [Shortcut] {
        try BrokerWire.list(try call(.shortcuts), "shortcuts") { (item) throws(TenderError) in try Shortcut(json: item) }
    }

    public func addShortcut(_ shortcut: Shortcut) throws(TenderError) { _ = try call(.addShortcut, [("shortcut", shortcut.json)]) }
    public func removeShortcut(phrase: String) throws(TenderError) { _ = try call(.removeShortcut, [("phrase", .string(phrase))]) }

    // MARK: LedgerAdmin

    public func ledgerEntries() throws(TenderError) -> [LedgerEntry] { try BrokerWire.list(try call(.ledgerEntries), "entries", BrokerWire.ledgerEntry) }

    /// Verified by the daemon, which reads the store the client cannot; `checkpoint` and `trustedKeys` are the client's.
    public func verify(checkpoint: String?, trustedKeys: [String: [UInt8]]?) throws(TenderError) -> LedgerVerifier.Report {
        var body: [(key: String, value: JSONValue)] = []
        if let checkpoint { body.append(("checkpoint", .string(checkpoint))) }
        if let trustedKeys {
            body.append(("trustedKeys", .object(trustedKeys.sorted { $0.key < $1.key }.map { ($0.key, .string(Base64URL.encode($0.value))) })))
        }
        return try BrokerWire.report(try member(.verify, "report", body))
    }

    public func checkpoint() throws(TenderError) -> String {
        guard let jws = try member(.checkpoint, "checkpoint").stringValue else { throw .store("the broker answered a checkpoint that is not text") }
        return jws
    }

    public func activeKey() throws(TenderError) -> StoredPublicKey { try BrokerWire.publicKey(try member(.activeKey, "key")) }
    public func rotateKey() throws(TenderError) -> StoredPublicKey { try BrokerWire.publicKey(try member(.rotateKey, "key")) }
    public func auditEntries() throws(TenderError) -> [AuditEntry] { try BrokerWire.list(try call(.audit), "entries", BrokerWire.auditEntry) }

    // MARK: PaymentLedger

    public func submit(_ submission: PaymentSubmission) throws(TenderError) -> SubmissionOutcome {
        throw .wrongState("through the broker, only the daemon's sessions pay")
    }

    public func recordIntent(idempotencyKey: String, makePayload: @Sendable (LedgerPosition) -> String) throws(TenderError) -> PaymentRecord {
        throw .wrongState("through the broker, only the daemon's sessions record")
    }

    public func records() throws(TenderError) -> [PaymentRecord] { try BrokerWire.list(try call(.records), "records", BrokerWire.record) }

    public func payment(idempotencyKey: String) throws(TenderError) -> (fingerprint: String, record: PaymentRecord)? {
        let body = try call(.payment, [("idempotencyKey", .string(idempotencyKey))])
        guard let record = body["record"], let fingerprint = body["fingerprint"]?.stringValue else { return nil }
        return (fingerprint, try BrokerWire.record(record))
    }

    public func mostRecentPayee() throws(TenderError) -> RecentPayee? {
        let body = try call(.mostRecentPayee)
        guard let contact = body["contactID"]?.stringValue, let handle = body["handleID"]?.stringValue else { return nil }
        return RecentPayee(contactID: contact, handleID: handle)
    }

    public func changeStatus(idempotencyKey: String, to status: PaymentStatus) throws(TenderError) -> PaymentRecord {
        try BrokerWire.record(try member(.changeStatus, "record", [("idempotencyKey", .string(idempotencyKey)), ("status", .string(status.rawValue))]))
    }

    public func changedStatuses() throws(TenderError) -> [String: PaymentStatus] {
        guard let members = try member(.changedStatuses, "statuses").objectMembers else { throw .store("the broker answered statuses that are not an object") }
        var statuses: [String: PaymentStatus] = [:]
        for member in members {
            guard let status = member.value.stringValue.flatMap(PaymentStatus.init(rawValue:)) else { throw .store("the broker answered an unknown status") }
            statuses[member.key] = status
        }
        return statuses
    }
}
