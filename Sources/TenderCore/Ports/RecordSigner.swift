// SPDX-License-Identifier: Apache-2.0
/// The port that signs ledger entries with the active private key.
/// Implementations must be safe to call from several threads.
public protocol RecordSigner: Sendable {
    /// The RFC 7638 thumbprint of the signing key, the JWS `kid`.
    var keyID: String { get }
    /// The Ed25519 signature of `message`.
    func sign(_ message: [UInt8]) throws(TenderError) -> [UInt8]
    /// A MAC of `message` under a secret only the private key's holder can
    /// derive (32 bytes): a record stored before its signature carries it, and
    /// is signed later only if it checks.
    func seal(_ message: [UInt8]) throws(TenderError) -> [UInt8]
    /// A batch of at most `capacity` messages, signed as they are added;
    /// implementations may sign on other cores while the caller prepares the
    /// next message. The caller owns the batch and ends it with
    /// ``SigningBatch/finish()`` or ``SigningBatch/abandon()``.
    func startBatch(capacity: Int) -> any SigningBatch
    /// As ``startBatch(capacity:)``, its workers and its caller waiting for each other as `waiting` says
    /// (``SigningWait/sleeping`` for a caller that waits for a database server between its messages). A signer
    /// without workers ignores it.
    func startBatch(capacity: Int, waiting: SigningWait) -> any SigningBatch
}

/// Messages signed as a group (see ``RecordSigner/startBatch(capacity:)``).
/// Used by one thread, the one that started it.
public protocol SigningBatch: AnyObject {
    /// Adds the next message; at most the batch's capacity in all.
    func add(_ message: [UInt8]) throws(TenderError)
    /// Every message's signature, in the order added, once all are signed.
    func finish() throws(TenderError) -> [[UInt8]]
    /// Stops the batch without its signatures; safe after ``finish()`` and more than once.
    func abandon()
}

extension RecordSigner {
    /// A batch that signs its messages one after another when it finishes.
    public func startBatch(capacity: Int) -> any SigningBatch { SequentialSigningBatch(signer: self, capacity: capacity) }
    /// ``startBatch(capacity:)``: a batch with no workers has nobody to wait for.
    public func startBatch(capacity: Int, waiting: SigningWait) -> any SigningBatch { startBatch(capacity: capacity) }
}

/// Signs on the calling thread, at ``finish()``.
final class SequentialSigningBatch: SigningBatch {
    private let signer: any RecordSigner
    private let capacity: Int
    private var messages: [[UInt8]] = []

    init(signer: any RecordSigner, capacity: Int) {
        self.signer = signer
        self.capacity = capacity
    }

    func add(_ message: [UInt8]) throws(TenderError) {
        guard messages.count < capacity else { throw .internal("a signing batch got more than its \(capacity) messages") }
        messages.append(message)
    }

    func finish() throws(TenderError) -> [[UInt8]] {
        var signatures: [[UInt8]] = []
        signatures.reserveCapacity(messages.count)
        for message in messages { signatures.append(try signer.sign(message)) }
        return signatures
    }

    func abandon() { messages.removeAll() }
}
