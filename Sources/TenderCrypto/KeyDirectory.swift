// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import Synchronization
import TenderCore

/// The ``KeyStore`` port on files: one PKCS#8 PEM file per key,
/// `HOME/keys/KID.pem` (`KID.pem.new` until the store recorded the key), in a 0700 directory. Loaded signers are cached.
/// Thread-safe; several processes may share the directory.
public final class KeyDirectory: KeyStore {
    /// The directory holding the key files, HOME/keys.
    public let path: String
    private let signers = PthreadLocked<[String: Ed25519Signer]>([:])

    /// The key directory inside `home`, created 0700 when missing (unless
    /// `create` is false: a read-only open, where a missing directory just
    /// holds no key); refused when it belongs to another user than the
    /// effective one or group or others can write it.
    public init(home: String, create: Bool = true) throws(TenderError) {
        path = home + "/keys"
        // Looked at first, made only when missing: an engine opened on an existing home (a host serving many) makes one call.
        var info = stat()
        var found = lstat(path, &info) == 0
        if !found, errno == ENOENT {
            if !create { return }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .keyFile("cannot create the key directory \(path): \(String(cString: strerror(errno)))")
            }
            found = lstat(path, &info) == 0
        }
        guard found, info.st_mode & S_IFMT == S_IFDIR else { throw .keyFile("\(path) is not a directory") }
        guard info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw .keyFile("the key directory \(path) is writable by others or belongs to another user")
        }
    }

    /// The file of key `keyID` (base64url, so always a plain file name).
    public func file(for keyID: String) -> String { "\(path)/\(keyID).pem" }

    /// The suffix of a key file written before the store recorded its key: a crash before that commit
    /// leaves a file no store names, which the continuity check (HomeDirectory) does not take for a
    /// replaced store's key. The store renames it to ``file(for:)`` once its key is recorded.
    public static let unrecordedSuffix = ".new"

    /// The file a key is read from: ``file(for:)``, or while its key is not known recorded, that name with ``unrecordedSuffix``.
    private func existingFile(for keyID: String) -> String {
        let recorded = file(for: keyID)
        var info = stat()
        if lstat(recorded, &info) != 0, errno == ENOENT, lstat(recorded + Self.unrecordedSuffix, &info) == 0 {
            return recorded + Self.unrecordedSuffix
        }
        return recorded
    }

    public func createKey() throws(TenderError) -> (keyID: String, publicKey: [UInt8]) {
        let key = try Ed25519PrivateKey.generate()
        let signer = try Ed25519Signer(key: key)
        var pem = try key.pkcs8PEM()
        defer { KeyFile.wipe(&pem) }
        try KeyFile.create(at: file(for: signer.keyID) + Self.unrecordedSuffix, contents: pem)
        fsyncDirectory()
        signers.withLock { $0[signer.keyID] = signer }
        return (signer.keyID, signer.publicKey)
    }

    public func signer(keyID: String) throws(TenderError) -> any RecordSigner {
        if let cached = signers.withLock({ $0[keyID] }) { return cached }
        var pem = try KeyFile.load(at: existingFile(for: keyID))
        defer { KeyFile.wipe(&pem) }
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey(pem: pem))
        guard signer.keyID == keyID else { throw .keyFile("the key file \(file(for: keyID)) holds another key") }
        signers.withLock { $0[keyID] = signer }
        return signer
    }

    /// ``signer(keyID:)`` with the public key the store records for `keyID` taken instead of derived from the seed
    /// (``Ed25519PrivateKey/init(seed:publicKey:)``) when it is that key's: its thumbprint (one SHA-256, where deriving
    /// is a scalar multiplication) must be `keyID`, the id naming the file the seed is read from; else the public key
    /// is derived, as by ``signer(keyID:)``. So a recorded public key another writer changed is never paired with the
    /// seed (such a pair's signatures would not verify; two of one message under two public keys reveal the key).
    /// What the thumbprint cannot see is a file named `keyID` holding the seed of another key (a corrupted file, or one
    /// replaced by a writer of the user's 0700 `keys/`): the seed is derived once, at the signer's first signature or
    /// seal, which throws ``TenderError/keyFile(_:)`` for such a file, so no payment is signed that verify refuses.
    public func signer(keyID: String, recordedPublicKey: [UInt8]) throws(TenderError) -> any RecordSigner {
        if let cached = signers.withLock({ $0[keyID] }) { return cached }
        guard recordedPublicKey.count == 32 else { return try signer(keyID: keyID) }
        var pem = try KeyFile.load(at: existingFile(for: keyID))
        defer { KeyFile.wipe(&pem) }
        let signer = try Ed25519Signer(key: try Ed25519PrivateKey(pem: pem, publicKey: recordedPublicKey))
        // The signer's id is the thumbprint of the public key it holds: the recorded one, unless the file was not read by seed.
        guard signer.keyID == keyID else { return try self.signer(keyID: keyID) }
        signers.withLock { $0[keyID] = signer }
        return signer
    }

    public func destroyKey(keyID: String) throws(TenderError) {
        signers.withLock { $0[keyID] = nil }
        for name in [file(for: keyID), file(for: keyID) + Self.unrecordedSuffix] where unlink(name) != 0 && errno != ENOENT {
            throw .keyFile("cannot remove the retired key \(keyID): \(String(cString: strerror(errno)))")
        }
        fsyncDirectory()
    }

    private func fsyncDirectory() {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
