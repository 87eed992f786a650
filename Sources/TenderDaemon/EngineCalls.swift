// SPDX-License-Identifier: Apache-2.0
import TenderBroker
import TenderCore
import TenderStore

/// The engine calls a client may make of its own store through the daemon:
/// the directory, the vocabulary, shortcuts, the ledger, verification,
/// checkpoints, keys and the audit log. Each request is read strictly, and
/// the store's own checks apply as in process.
enum EngineCalls {
    static func serve(_ request: BrokerMessage, store: SQLiteStore) throws(TenderError) -> [(key: String, value: JSONValue)] {
        switch request.op {
        case .directory:
            _ = try request.reader(allowed: [])
            return [("directory", try store.directoryDocument().json)]
        case .importDirectory:
            try store.importDirectory(try DirectoryDocument(json: try required(request, "directory")))
            return []
        case .removeFromDirectory:
            try store.removeFromDirectory(try DirectoryRemoval(json: try required(request, "removal")))
            return []
        case .setVocabulary:
            try store.setVocabulary(try UserVocabulary(json: try required(request, "vocabulary")))
            return []
        case .vocabulary:
            guard let kind = try required(request, "kind").stringValue.flatMap(VocabularyKind.init(rawValue:)) else {
                throw .invalidArgument("vocabulary.kind is not a vocabulary kind")
            }
            return [("vocabulary", try store.vocabulary(kind).json)]
        case .setSignedIn:
            guard let signedIn = try required(request, "signedIn").boolValue else { throw .invalidArgument("setSignedIn.signedIn must be true or false") }
            try store.setSignedIn(signedIn)
            return []
        case .signedIn:
            _ = try request.reader(allowed: [])
            return [("signedIn", .bool(try store.isSignedIn()))]
        case .shortcuts:
            _ = try request.reader(allowed: [])
            return [("shortcuts", .array(try store.shortcuts().map(\.json)))]
        case .addShortcut:
            try store.addShortcut(try Shortcut(json: try required(request, "shortcut")))
            return []
        case .removeShortcut:
            guard let phrase = try required(request, "phrase").stringValue else { throw .invalidArgument("removeShortcut.phrase must be a string") }
            try store.removeShortcut(phrase: phrase)
            return []
        case .ledgerEntries:
            _ = try request.reader(allowed: [])
            return [("entries", .array(try store.ledgerEntries().map(BrokerWire.json)))]
        case .verify:
            let reader = try request.reader(allowed: ["checkpoint", "trustedKeys"])
            let checkpoint = try reader.string("checkpoint", maxLength: JSONInput.maxBytes)
            var trusted: [String: [UInt8]]?
            if let keys = reader["trustedKeys"] {
                guard let members = keys.objectMembers, members.count <= 64 else { throw .invalidArgument("verify.trustedKeys must be an object of keys") }
                var map: [String: [UInt8]] = [:]
                for member in members {
                    guard let raw = member.value.stringValue.flatMap(Base64URL.decode), raw.count == 32 else {
                        throw .invalidArgument("verify.trustedKeys holds a key that is not a base64url Ed25519 public key")
                    }
                    map[member.key] = raw
                }
                trusted = map
            }
            return [("report", try store.verify(checkpoint: checkpoint, trustedKeys: trusted).json)]
        case .checkpoint:
            _ = try request.reader(allowed: [])
            return [("checkpoint", .string(try store.checkpoint()))]
        case .activeKey:
            _ = try request.reader(allowed: [])
            return [("key", BrokerWire.json(try store.activeKey()))]
        case .rotateKey:
            _ = try request.reader(allowed: [])
            return [("key", BrokerWire.json(try store.rotateKey()))]
        case .audit:
            _ = try request.reader(allowed: [])
            return [("entries", .array(try store.auditEntries().map(BrokerWire.json)))]
        case .records:
            _ = try request.reader(allowed: [])
            return [("records", .array(try store.records().map(BrokerWire.json)))]
        case .payment:
            guard let key = try required(request, "idempotencyKey").stringValue else { throw .invalidArgument("payment.idempotencyKey must be a string") }
            guard let (fingerprint, record) = try store.payment(idempotencyKey: key) else { return [] }
            return [("fingerprint", .string(fingerprint)), ("record", BrokerWire.json(record))]
        case .mostRecentPayee:
            _ = try request.reader(allowed: [])
            guard let payee = try store.mostRecentPayee() else { return [] }
            return [("contactID", .string(payee.contactID)), ("handleID", .string(payee.handleID))]
        case .changeStatus:
            let reader = try request.reader(allowed: ["idempotencyKey", "status"])
            let key = try reader.requiredString("idempotencyKey", maxLength: 256)
            guard let status = PaymentStatus(rawValue: try reader.requiredString("status", maxLength: 16)) else {
                throw .invalidArgument("changeStatus.status is not a payment status")
            }
            return [("record", BrokerWire.json(try store.changeStatus(idempotencyKey: key, to: status)))]
        case .changedStatuses:
            _ = try request.reader(allowed: [])
            return [("statuses", .object(try store.changedStatuses().sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.rawValue)) }))]
        default:
            throw .wrongState("\(request.op.rawValue) is not a request a client may send here")
        }
    }

    /// The one member `key` of the request's body (nothing else allowed).
    private static func required(_ request: BrokerMessage, _ key: String) throws(TenderError) -> JSONValue {
        let reader = try request.reader(allowed: [key])
        guard let value = reader[key] else { throw .invalidArgument("\(request.op.rawValue).\(key) is required") }
        return value
    }
}
