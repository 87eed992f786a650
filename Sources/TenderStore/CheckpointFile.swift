// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// A checkpoint kept in a file, outside the home (configuration `"checkpointPath"`):
/// replaced atomically (a private temporary file, flushed, then renamed over it),
/// so a crash leaves the previous checkpoint or the new one, never a torn one.
enum CheckpointFile {
    /// Writes `text` and a newline to `path` as one atomic replacement (mode 0600).
    /// Throws ``TenderError/store(_:)`` naming what failed; the old file is then left as it was.
    static func write(_ text: String, to path: String) throws(TenderError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .store("cannot write the checkpoint \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array((text + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw .store("cannot write the checkpoint \(temporary): \(reason)")
            }
            written += count
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            unlink(temporary)
            throw .store("cannot flush the checkpoint \(temporary): \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .store("cannot replace the checkpoint \(path): \(reason)")
        }
    }

    /// The checkpoint in `path` (whitespace trimmed), nil when there is no such file;
    /// throws ``TenderError/store(_:)`` when it exists but cannot be read or is larger than a checkpoint.
    static func read(_ path: String) throws(TenderError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .store("cannot read the checkpoint \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        var used = 0
        while used < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + used, $0.count - used) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .store("cannot read the checkpoint \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            used += count
        }
        guard used < bytes.count else { throw .store("the checkpoint \(path) is larger than a checkpoint") }
        let text = String(decoding: bytes[..<used], as: UTF8.self)
        return String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
